/* rundir.h — a run's results directory, DIR, as `stratbench run --out`
 * writes it and `run --resume` finishes it: DIR/run.json (rundir_json.c),
 * the .partial files and their commit, DIR/.lock, and what a resume keeps
 * of an interrupted session (rundir.c).
 *
 * Results are written under NAME.partial and renamed when the run ends, so
 * a crash leaves the finished results in *.partial and never a file that
 * looks complete.  DIR/.lock is flock()ed for the whole run or resume: a
 * second writer of DIR is refused, naming the pid. */
#ifndef STRATBENCH_RUNDIR_H
#define STRATBENCH_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* DIR/run.json: what --resume needs; *complete only when run.json says so
 * and the files the readers take are whole (no runs.jsonl.partial;
 * gbench.json, or a runs.jsonl with no cut line) */
int sb_resume_record(const char *dir, int argc, char **argv, const char *label, bool complete,
		     char *err, size_t errlen);
int sb_resume_load(const char *dir, int *argc, char ***argv, bool *complete, char *err,
		   size_t errlen);
void sb_resume_free_argv(int argc, char **argv);

/* mkdir -p DIR (each directory made is remembered); refuses a DIR that
 * already holds results, naming the pid of a live writer. */
int sb_rundir_prepare(const char *dir, char *err, size_t errlen);
/* DIR/.lock, flock()ed exclusively for the life of the process (never
 * closed: the kernel drops it at exit); its fd, or -1 with err. */
int sb_rundir_lock(const char *dir, char *err, size_t errlen);
/* DIR/NAME removed; a failure other than absence is said on stderr */
void sb_rundir_remove(const char *dir, const char *name);
/* Nothing ran: every .partial, run.json and .lock of DIR removed. */
void sb_rundir_clear(const char *dir);
/* The directories sb_rundir_prepare made, removed if still empty
 * (innermost first), or only forgotten. */
void sb_rundir_remove_created(void);
void sb_rundir_forget_created(void);

/* What --resume finds done. */
struct sb_done {
	char **names;		/* the finished benchmarks, as registered */
	int n, cap;
	json_t *context;	/* the latest session's */
	json_t *benchmarks;	/* every finished benchmark's entries, in order */
};
/* name is a finished benchmark's: the plan's skip hook (arg: the sb_done) */
bool sb_done_has(const char *name, void *arg);
void sb_done_free(struct sb_done *d);
/* Reads what DIR holds, leaves DIR/runs.jsonl.partial,
 * DIR/results.csv.partial and DIR/windows.jsonl.partial with exactly the
 * finished benchmarks.  -2: DIR holds what is not results; -1: it could
 * not be rewritten; either way err says why and DIR is as it was. */
int sb_rundir_resume(const char *dir, struct sb_done *d, char *err, size_t errlen);
/* The files of a finished session get their final names: results.csv,
 * gbench.json (GB's, or for a resume from the log), windows.jsonl, then
 * runs.jsonl last (a reader takes runs.jsonl.partial over gbench.json
 * while it exists).  0, or -1 with err (nothing after the first failure is
 * renamed: every file keeps a complete .partial). */
int sb_rundir_finish(const char *dir, bool resume, char *err, size_t errlen);

#endif
