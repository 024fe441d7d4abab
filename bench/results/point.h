/* point.h — internal to bench/: a benchmark's point as typed fields
 * (docs/results.md "Points", DESIGN.md §8).  plan/plan.c fills one per
 * benchmark and builds the registered name from it (sb_point_name): a key
 * for GB and people that nothing splits.  Every results file carries the
 * fields: runs.jsonl's "point", results.csv's columns, gbench.json's context
 * ("sb_points": the table by registered name, as JSON text since GB's context
 * holds strings only).  sb_points_match maps a GB entry to its point: the
 * longest key that is its run_name or a prefix of it followed by '/' (GB
 * appends /iterations:N, /repeats:N, /manual_time). */
#ifndef STRATBENCH_POINT_H
#define STRATBENCH_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* Version of what a results directory holds (docs/results.md "Versions"). */
#define SB_SCHEMA_VERSION 1

#define SB_PARAMS_MAX 16
struct sb_param {
	char key[24];
	char val[64];
	bool bare;		/* the name shows the value alone ("/batched") */
};
/* The point's parameters in the order the name shows them. */
struct sb_params {
	int n;
	struct sb_param p[SB_PARAMS_MAX];
};

struct sb_point_fields {
	char family[32];
	char strategy[64];
	char lock[64];		/* "" when the strategy takes no lock */
	int threads;
	char placement[128];	/* as given: list:0-3,8 keeps its commas */
	struct sb_params params;
};

/* Adds key=value (printf), or replaces key's value; -1 when full or too long. */
int sb_params_set(struct sb_params *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sb_params_set_bare(struct sb_params *p, const char *key, const char *val);
/* key's value, NULL when absent. */
const char *sb_params_get(const struct sb_params *p, const char *key);
/* Appends src's parameters (replacing those of the same key). */
void sb_params_add_all(struct sb_params *dst, const struct sb_params *src);
/* "k=v;k=v" without the keys in skip (a NULL-terminated list, or NULL). */
void sb_params_str(const struct sb_params *p, const char *const *skip, char *buf, size_t n);
/* " k=v k=v" for people (titles, keys, tables); same skip. */
void sb_params_human(const struct sb_params *p, const char *const *skip, char *buf, size_t n);

/* family/strategy[/lock:L]/threads:N/place:P[/k:v]... (commas in the
 * placement become '+', so names stay comma-free for CSV and filters);
 * params before threads are those the caller marks first (nfirst). */
void sb_point_name(const struct sb_point_fields *f, int nfirst, char *buf, size_t n);
/* The placement as the name and the CSV files show it: commas as '+'. */
void sb_point_place(const struct sb_point_fields *f, char *buf, size_t n);
/* The point less threads and placement, as a key: "family/strategy/lock/k=v;..."
 * (what a scaling reference or a compare group is keyed by). */
void sb_point_group(const struct sb_point_fields *f, const char *const *skip, char *buf,
		    size_t n);

/* No `bare` flag in JSON: a point read back is data, never rebuilt into a
 * name (the registered name is stored beside it). */
json_t *sb_point_to_json(const struct sb_point_fields *f);
/* 0, or -1 with one line in err naming the missing or mistyped field. */
int sb_point_from_json(json_t *j, struct sb_point_fields *f, char *err, size_t errlen);

/* run_name (as GB writes it) is registered, or registered followed by '/' */
bool sb_name_belongs(const char *run_name, const char *registered);

/* The run's table: registered name -> fields (main thread only). */
void sb_points_add(const char *name, const struct sb_point_fields *f);
const struct sb_point_fields *sb_points_find(const char *name);
/* The registered name in the table that run_name belongs to, NULL: none. */
const char *sb_points_registered(const char *run_name);
/* name was done before (--resume): in the table, not run now; _done_at: the
 * i-th point is (the console's table waits for the others only). */
void sb_points_set_done(const char *name);
bool sb_points_done_at(int i);
/* The table's points in the order added (i < sb_points_count()). */
int sb_points_count(void);
const struct sb_point_fields *sb_points_at(int i);
void sb_points_clear(void);
/* The table as compact JSON text ({"name": {...}, ...}), malloc'd. */
char *sb_points_json(void);
/* The key of table (JSON, by registered name) run_name belongs to, or NULL */
const char *sb_points_match(json_t *table, const char *run_name);

#endif
