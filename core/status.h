/* status.h: status codes (one X-macro list, status.def; SUNDIALS' sign convention:
 * 0 success, > 0 recoverable, < 0 fatal) and the bounded error text every
 * function that can fail writes */
#ifndef VI_STATUS_H
#define VI_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (core/status.def): 0 success, > 0 recoverable, < 0 fatal. */
typedef enum vi_status {
#define VI_STATUS(name, value, msg) name = value,
#include "status.def"
#undef VI_STATUS
} vi_status;

/* Message of a status code; never NULL. */
const char *vi_strerror(int status);

/* A system callback's own return code is not a vi_status: map it onto the
 * two callback statuses, keeping the sign (> 0 recoverable, < 0 fatal). */
static inline int vi_callback_status(int rc) {
  return rc == 0 ? VI_OK : rc > 0 ? VI_CALLBACK_RECOVERABLE : VI_ECALLBACK;
}

/* printf into err (bounded; err may be NULL or errlen 0). */
void vi_set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#ifdef __cplusplus
}
#endif
#endif
