/* rundir.h — DIR of `run --out=DIR` and `--resume=DIR`: run.json, .lock, the
 * NAME.partial files renamed when the run ends (a crash leaves the finished
 * results in *.partial, never a file that looks complete), what resume keeps. */
#ifndef STRATBENCH_RUNDIR_H
#define STRATBENCH_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* DIR/run.json: what --resume needs; *complete when it says so and the files
 * readers take are whole (no runs.jsonl.partial; gbench.json or no cut line) */
int sb_resume_record(const char *dir, int argc, char **argv, const char *label, bool complete,
		     char *err, size_t errlen);
int sb_resume_load(const char *dir, int *argc, char ***argv, bool *complete, char *err,
		   size_t errlen);
void sb_resume_free_argv(int argc, char **argv);

/* mkdir -p DIR; refuses a DIR that holds results (naming a live writer) */
int sb_rundir_prepare(const char *dir, char *err, size_t errlen);
/* DIR/.lock, flock()ed exclusively until exit (never closed); its fd, or
 * -1 with err naming the holder if another has it */
int sb_rundir_lock(const char *dir, char *err, size_t errlen);
/* DIR/NAME removed; a failure other than absence is said on stderr */
void sb_rundir_remove(const char *dir, const char *name);
/* nothing ran: DIR's .partial files, run.json and .lock removed */
void sb_rundir_clear(const char *dir);
/* the directories sb_rundir_prepare made: removed if empty, or forgotten */
void sb_rundir_remove_created(void);
void sb_rundir_forget_created(void);

struct sb_done {	/* what --resume finds done */
	char **names;		/* the finished benchmarks, as registered */
	int n, cap;
	json_t *context;	/* the latest session's */
	json_t *benchmarks;	/* every finished benchmark's entries, in order */
};
/* name is a finished benchmark's: the plan's skip hook (arg: the sb_done) */
bool sb_done_has(const char *name, void *arg);
void sb_done_free(struct sb_done *d);
/* DIR's *.partial rewritten to the finished benchmarks, read into d; -2:
 * DIR holds what is not results, -1: it could not be rewritten */
int sb_rundir_resume(const char *dir, struct sb_done *d, char *err, size_t errlen);
/* Final names for results.csv, gbench.json (GB's, or a resume's from the
 * log), windows.jsonl, then runs.jsonl last (readers take runs.jsonl.partial
 * over gbench.json); -1 with err leaves each file a complete .partial. */
int sb_rundir_finish(const char *dir, bool resume, char *err, size_t errlen);

#endif
