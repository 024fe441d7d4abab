/* schema_keys.c — prints the key path of every member of JSON files, one a
 * line, for test_schema.sh (docs/results.md: every field written is
 * documented).  A path joins member names with '.' and marks an array's
 * elements with "[]": {"a": [{"b": 1}]} prints "a" and "a[].b".
 *   schema_keys [-j KEY]... [-m KEY]... FILE...
 * -j KEY: a string member named KEY holds JSON text (gbench.json's
 *         sb_points): it is parsed and its members printed below it.
 * -m KEY: the object of a member named KEY is a map keyed by data (sb_points
 *         is keyed by benchmark name): its keys print as "*".
 * A FILE ending in ".jsonl" is one document a line.  NaN, Infinity and
 * -Infinity outside strings (Google Benchmark writes them, JSON has none)
 * are read as null.  Exits 1 with "FILE:LINE: what" at a document that
 * does not parse. */
#define _GNU_SOURCE	/* getline */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#define MAX_KEYS 16

static const char *json_keys[MAX_KEYS], *map_keys[MAX_KEYS];
static int njson, nmap;

static bool listed(const char *const *v, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], key))
			return true;
	return false;
}

/* a copy of s with NaN, Infinity, -Infinity outside strings as null */
static char *nan_to_null(const char *s)
{
	static const char *const tok[] = { "-Infinity", "Infinity", "-NaN", "NaN", "-nan", "nan" };
	char *out = malloc(2 * strlen(s) + 1), *o = out;
	bool in_str = false;

	if (!out)
		return NULL;
	while (*s) {
		size_t i, n = 0;

		if (in_str) {
			if (*s == '\\' && s[1])
				*o++ = *s++;
			else if (*s == '"')
				in_str = false;
			*o++ = *s++;
			continue;
		}
		if (*s == '"')
			in_str = true;
		for (i = 0; i < sizeof(tok) / sizeof(tok[0]) && !n; i++)
			if (!strncmp(s, tok[i], strlen(tok[i])))
				n = strlen(tok[i]);
		if (n) {
			memcpy(o, "null", 4);
			o += 4;
			s += n;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void walk(json_t *v, const char *path, bool is_map);

static void member(const char *path, const char *key, json_t *v, bool is_map)
{
	size_t n = strlen(path) + strlen(key) + 2;
	char *p = malloc(n);

	if (!p)
		return;
	snprintf(p, n, "%s%s%s", path, *path ? "." : "", is_map ? "*" : key);
	puts(p);
	if (json_is_string(v) && listed(json_keys, njson, key)) {
		json_t *in = json_loads(json_string_value(v), 0, NULL);

		if (in)	/* text that is not JSON: the member alone */
			walk(in, p, listed(map_keys, nmap, key));
		json_decref(in);
	} else {
		walk(v, p, listed(map_keys, nmap, key));
	}
	free(p);
}

static void walk(json_t *v, const char *path, bool is_map)
{
	const char *key;
	json_t *m;
	size_t i;

	if (json_is_object(v)) {
		json_object_foreach(v, key, m) {
			member(path, key, m, is_map);
		}
	} else if (json_is_array(v)) {
		size_t n = strlen(path) + 3;
		char *p = malloc(n);

		if (!p)
			return;
		snprintf(p, n, "%s[]", path);
		json_array_foreach(v, i, m) {
			walk(m, p, false);
		}
		free(p);
	}
}

static int doc(const char *file, int line, const char *text)
{
	char *clean = nan_to_null(text);
	json_error_t e = { .text = "out of memory" };
	json_t *j = clean ? json_loads(clean, 0, &e) : NULL;

	free(clean);
	if (!j) {
		fprintf(stderr, "%s:%d: not JSON: %s\n", file, line, e.text);
		return -1;
	}
	walk(j, "", false);
	json_decref(j);
	return 0;
}

static int read_file(const char *file)
{
	FILE *f = fopen(file, "r");
	size_t len = strlen(file), cap = 0, n = 0;
	bool lines = len > 6 && !strcmp(file + len - 6, ".jsonl");
	char *buf = NULL, *text = NULL, *more;
	ssize_t r;
	int lineno = 0, rc = 0;

	if (!f) {
		fprintf(stderr, "%s: cannot read\n", file);
		return -1;
	}
	while (!rc && (r = getline(&buf, &cap, f)) > 0) {
		lineno++;
		if (lines) {
			rc = doc(file, lineno, buf);
			continue;
		}
		more = realloc(text, n + (size_t)r + 1);
		if (!more) {
			fprintf(stderr, "%s: out of memory\n", file);
			rc = -1;
			break;
		}
		text = more;
		memcpy(text + n, buf, (size_t)r + 1);
		n += (size_t)r;
	}
	if (!rc && !lines)
		rc = text ? doc(file, 1, text) : (fprintf(stderr, "%s: empty\n", file), -1);
	free(buf);
	free(text);
	fclose(f);
	return rc;
}

int main(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "j:m:")) != -1) {
		if (c == 'j' && njson < MAX_KEYS)
			json_keys[njson++] = optarg;
		else if (c == 'm' && nmap < MAX_KEYS)
			map_keys[nmap++] = optarg;
		else
			goto usage;
	}
	if (optind == argc)
		goto usage;
	for (; optind < argc; optind++)
		if (read_file(argv[optind]))
			return 1;
	return 0;
usage:
	fprintf(stderr, "usage: schema_keys [-j KEY]... [-m KEY]... FILE...\n");
	return 2;
}
