/* outcome.h: the outcome of a study as the program's exit status
 * (design.md): 0 success, 1 a failed check or mismatch, 2 bad usage. */
#ifndef VI_OUTCOME_H
#define VI_OUTCOME_H

enum { VI_EXIT_OK = 0, VI_EXIT_FAIL = 1, VI_EXIT_USAGE = 2 };

#endif
