/* test_outfile.c: sets of outputs replaced together (studies/outfile.h,
 * issue 22 item 1): committed, all new; aborted, all old and no temporary;
 * a rename failing in the middle of the commit, every file put back as it
 * was (the case a full disk cannot reach: the renames need no space). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "outfile.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text) {
  char p[VI_PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The content of dir/name ("" when missing or not a file). */
static const char *get(const char *dir, const char *name, char *buf, size_t len) {
  char p[VI_PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "r");
  buf[0] = '\0';
  if (f) {
    size_t k = fread(buf, 1, len - 1, f);
    buf[k] = '\0';
    fclose(f);
  }
  return buf;
}

/* Hidden files left in dir (temporaries, backups). */
static int hidden(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    n += e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  }
  if (d) {
    closedir(d);
  }
  return n;
}

static int stage3(vi_outset *s, const char *dir, const char *text, char *err, size_t len) {
  static const char *const names[3] = {"a.json", "a.md", "c.csv"};
  for (int i = 0; i < 3; i++) {
    char p[VI_PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    if (vi_outset_text(s, p, text, err, len) != 0) {
      return -1;
    }
  }
  return 0;
}

int main(void) {
  vi_check_ctx c = {0, 0};
  char dir[] = "/tmp/vi-outset-XXXXXX", err[VI_PATH_MAX + 512], buf[64];
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  put(dir, "a.json", "old");
  put(dir, "a.md", "old");
  vi_outset s;

  /* Aborted: nothing changes, nothing is left. */
  vi_outset_init(&s);
  VI_CHECK(&c, stage3(&s, dir, "new", err, sizeof err) == 0, "stage: %s", err);
  VI_CHECK(&c, hidden(dir) == 3, "three temporaries while staged, found %d", hidden(dir));
  vi_outset_abort(&s);
  VI_CHECK(&c, !strcmp(get(dir, "a.json", buf, sizeof buf), "old") &&
                   !strcmp(get(dir, "a.md", buf, sizeof buf), "old"),
           "an aborted set changed a file");
  VI_CHECK(&c, access(strcat(strcpy(buf, dir), "/c.csv"), F_OK) != 0,
           "an aborted set created a file");
  VI_CHECK(&c, hidden(dir) == 0, "an aborted set left %d hidden files", hidden(dir));

  /* A rename failing at the third member (its name became a directory
   * after staging): the first two are put back. */
  vi_outset_init(&s);
  VI_CHECK(&c, stage3(&s, dir, "new", err, sizeof err) == 0, "stage: %s", err);
  char sub[VI_PATH_MAX];
  snprintf(sub, sizeof sub, "%s/c.csv", dir);
  VI_CHECK(&c, mkdir(sub, 0755) == 0, "mkdir");
  VI_CHECK(&c, vi_outset_commit(&s, err, sizeof err) != 0, "a failing rename committed");
  VI_CHECK(&c, strstr(err, "c.csv") != NULL, "the message does not name c.csv: %s", err);
  VI_CHECK(&c, !strcmp(get(dir, "a.json", buf, sizeof buf), "old") &&
                   !strcmp(get(dir, "a.md", buf, sizeof buf), "old"),
           "a failed commit left a replaced file");
  VI_CHECK(&c, hidden(dir) == 0, "a failed commit left %d hidden files", hidden(dir));
  rmdir(sub);

  /* Committed: all new, the new name created, nothing left. */
  vi_outset_init(&s);
  VI_CHECK(&c, stage3(&s, dir, "new", err, sizeof err) == 0, "stage: %s", err);
  VI_CHECK(&c, vi_outset_commit(&s, err, sizeof err) == 0, "commit: %s", err);
  VI_CHECK(&c, !strcmp(get(dir, "a.json", buf, sizeof buf), "new") &&
                   !strcmp(get(dir, "a.md", buf, sizeof buf), "new") &&
                   !strcmp(get(dir, "c.csv", buf, sizeof buf), "new"),
           "a committed set is not all new");
  VI_CHECK(&c, hidden(dir) == 0, "a commit left %d hidden files", hidden(dir));

  /* A FIFO is not a member: results are regular files. */
  char fifo[VI_PATH_MAX];
  snprintf(fifo, sizeof fifo, "%s/f.md", dir);
  if (mkfifo(fifo, 0644) == 0) {
    vi_outset_init(&s);
    VI_CHECK(&c, vi_outset_add(&s, fifo, err, sizeof err) == NULL &&
                     strstr(err, "not a regular file"),
             "a FIFO accepted as a member: %s", err);
    vi_outset_abort(&s);
    unlink(fifo);
  }
  static const char *const names[3] = {"a.json", "a.md", "c.csv"};
  for (int i = 0; i < 3; i++) {
    char p[VI_PATH_MAX];
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
  printf("outfile: %d checks, %d failed\n", c.checks, c.failures);
  return c.failures != 0;
}
