/* check_timeline.c — checks a windows.jsonl (docs/window.md "Fidelity mode")
 * for test_timeline.sh: every line parses and holds the fields with their
 * types; windows in time order, the first from 0, each start < end and
 * ending where the next starts (none overlap), pages >= 0, their sum at
 * most the pages admitted, the members' pages summing to the window's,
 * idle indices ascending within the list, at most 200 windows and all of
 * them when there are fewer.  With --nonempty, each line also needs a
 * window with pages > 0.  Prints one line per benchmark for the figures'
 * cross-check: NAME ADMIT_MAX STRETCH_MAX (over the listed windows after
 * the set-up's that are not idle; "- -" when there is none, or when the
 * list is cut at 200 so the maxima may lie beyond it).  Exits 1 with
 * "FILE:LINE: what" on stderr at the first bad line. */
#define _GNU_SOURCE	/* getline */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#define MAX_WINDOWS 200

static const char *file;
static int lineno;

#define BAD(...)                                                        \
	do {                                                            \
		fprintf(stderr, "%s:%d: ", file, lineno);               \
		fprintf(stderr, __VA_ARGS__);                           \
		fputc('\n', stderr);                                    \
		return -1;                                              \
	} while (0)

static int get_int(json_t *o, const char *key, json_int_t min, json_int_t *v)
{
	json_t *j = json_object_get(o, key);

	if (!json_is_integer(j) || json_integer_value(j) < min)
		BAD("\"%s\" missing, not an integer or below %" JSON_INTEGER_FORMAT, key, min);
	*v = json_integer_value(j);
	return 0;
}

static int check_line(json_t *l, bool nonempty)
{
	json_t *name = json_object_get(l, "name"), *pt = json_object_get(l, "point");
	json_t *win = json_object_get(l, "windows"), *mem = json_object_get(l, "members");
	json_t *idle = json_object_get(l, "idle"), *w;
	const char *clock = json_string_value(json_object_get(l, "clock"));
	const char *family = json_string_value(json_object_get(pt, "family"));
	const char *mode = json_string_value(json_object_get(json_object_get(pt, "params"), "mode"));
	json_int_t interval, limit, admitted, total, threads, prev_end = 0, sum = 0, last_idle = 0;
	double amax = -1, smax = -1;
	bool any = false, *is_idle;
	size_t k, nw;

	if (!json_is_string(name) || !*json_string_value(name))
		BAD("no \"name\"");
	if (!family || strcmp(family, "window") || !mode || strcmp(mode, "fidelity"))
		BAD("\"point\" is not a window fidelity point");
	if (get_int(l, "interval_ns", 1, &interval) || get_int(l, "limit", 1, &limit) ||
	    get_int(l, "admitted", 0, &admitted) || get_int(l, "windows_total", 0, &total) ||
	    get_int(pt, "threads", 1, &threads))
		return -1;
	if (!clock || (strcmp(clock, "cycles") && strcmp(clock, "jiffies") && strcmp(clock, "calls")))
		BAD("\"clock\" is not \"cycles\", \"jiffies\" or \"calls\"");
	if (!json_is_array(win) || !json_is_array(mem) || !json_is_array(idle))
		BAD("\"windows\", \"members\" or \"idle\" is not an array");
	nw = json_array_size(win);
	if (nw > MAX_WINDOWS || (json_int_t)nw != (total < MAX_WINDOWS ? total : MAX_WINDOWS))
		BAD("%zu windows listed of %" JSON_INTEGER_FORMAT " (want all, at most %d)", nw,
		    total, MAX_WINDOWS);
	if (json_array_size(mem) != nw)
		BAD("\"members\" has %zu entries for %zu windows", json_array_size(mem), nw);
	is_idle = calloc(nw + 1, sizeof(*is_idle));
	json_array_foreach(idle, k, w) {
		json_int_t i = json_integer_value(w);

		if (!json_is_integer(w) || i < 1 || i >= (json_int_t)nw || (k && i <= last_idle)) {
			free(is_idle);
			BAD("idle index %zu is not ascending within 1..%zu", k, nw - 1);
		}
		is_idle[i] = true;
		last_idle = i;
	}
	json_array_foreach(win, k, w) {
		json_t *m = json_array_get(mem, k), *p;
		json_int_t s, e, pages, msum = 0;
		size_t i;

		if (!json_is_array(w) || json_array_size(w) != 3 ||
		    !json_is_integer(json_array_get(w, 0)) || !json_is_integer(json_array_get(w, 1)) ||
		    !json_is_integer(json_array_get(w, 2)))
			goto bad_window;
		s = json_integer_value(json_array_get(w, 0));
		e = json_integer_value(json_array_get(w, 1));
		pages = json_integer_value(json_array_get(w, 2));
		if (s != prev_end) {	/* 0 for the first */
			free(is_idle);
			BAD("window %zu starts at %" JSON_INTEGER_FORMAT " ns, not where the one "
			    "before ends (%" JSON_INTEGER_FORMAT "): out of order, overlapping "
			    "or with a gap", k, s, prev_end);
		}
		if (s >= e || pages < 0) {
			free(is_idle);
			BAD("window %zu: start %" JSON_INTEGER_FORMAT " >= end %" JSON_INTEGER_FORMAT
			    " or pages %" JSON_INTEGER_FORMAT " < 0", k, s, e, pages);
		}
		if (!json_is_array(m) || json_array_size(m) != (size_t)threads) {
			free(is_idle);
			BAD("members[%zu] is not %" JSON_INTEGER_FORMAT " numbers", k, threads);
		}
		json_array_foreach(m, i, p) {
			if (!json_is_integer(p) || json_integer_value(p) < 0) {
				free(is_idle);
				BAD("members[%zu][%zu] is not a count", k, i);
			}
			msum += json_integer_value(p);
		}
		if (msum != pages) {
			free(is_idle);
			BAD("window %zu: members' pages sum to %" JSON_INTEGER_FORMAT ", not %"
			    JSON_INTEGER_FORMAT, k, msum, pages);
		}
		sum += pages;
		any |= pages > 0;
		if (k && !is_idle[k]) {
			if ((double)pages / (double)limit > amax)
				amax = (double)pages / (double)limit;
			if ((double)(e - s) / (double)interval > smax)
				smax = (double)(e - s) / (double)interval;
		}
		prev_end = e;
		continue;
bad_window:
		free(is_idle);
		BAD("window %zu is not [start_ns, end_ns, pages]", k);
	}
	free(is_idle);
	if (sum > admitted)
		BAD("the windows hold %" JSON_INTEGER_FORMAT " pages, more than the %"
		    JSON_INTEGER_FORMAT " admitted", sum, admitted);
	if (nonempty && !any)
		BAD("no window has pages");
	if (amax < 0 || total > MAX_WINDOWS)
		printf("%s - -\n", json_string_value(name));
	else
		printf("%s %.9g %.9g\n", json_string_value(name), amax, smax);
	return 0;
}

int main(int argc, char **argv)
{
	bool nonempty = argc > 2 && strcmp(argv[1], "--nonempty") == 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int rc = 0;

	if (argc != 2 + nonempty) {
		fprintf(stderr, "usage: check_timeline [--nonempty] windows.jsonl\n");
		return 2;
	}
	file = argv[1 + nonempty];
	if (!(f = fopen(file, "r"))) {
		perror(file);
		return 1;
	}
	while (!rc && (n = getline(&line, &cap, f)) > 0) {
		json_error_t e;
		json_t *j;

		lineno++;
		if (line[n - 1] != '\n') {
			fprintf(stderr, "%s:%d: cut short (no newline)\n", file, lineno);
			rc = 1;
			break;
		}
		j = json_loads(line, 0, &e);
		if (!json_is_object(j)) {
			fprintf(stderr, "%s:%d: not a JSON object: %s\n", file, lineno, e.text);
			rc = 1;
		} else if (check_line(j, nonempty)) {
			rc = 1;
		}
		json_decref(j);
	}
	free(line);
	fclose(f);
	return rc;
}
