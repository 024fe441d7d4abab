/* rundir_json.c — DIR/run.json: what --resume needs to finish a sweep with the
 * same command line, machine and revision.  Written (atomically) when the run
 * starts and ends, "complete" when every planned benchmark finished. */
#include "results/results.h"
#include "results/rundir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "sb_gitrev.h"

int sb_resume_record(const char *dir, int argc, char **argv, const char *label, bool complete,
		     char *err, size_t errlen)
{
	char path[SB_PATH], buf[1024];
	json_t *j = json_object(), *a = json_array();
	int i, rc = -1;

	for (i = 0; i < argc; i++)
		json_array_append_new(a, json_string(argv[i]));
	json_object_set_new(j, "stratbench_run", json_integer(1));
	json_object_set_new(j, "argv", a);
	sb_context_host(buf, sizeof(buf));
	json_object_set_new(j, "host", json_string(buf));
	sb_context_cpu_model(buf, sizeof(buf));
	json_object_set_new(j, "cpu_model", json_string(buf));
	json_object_set_new(j, "pus", json_integer(sysconf(_SC_NPROCESSORS_CONF)));
	json_object_set_new(j, "git_revision", json_string(STRATBENCH_GIT_REV));
	json_object_set_new(j, "label", label ? json_string(label) : json_null());
	json_object_set_new(j, "complete", json_boolean(complete));
	if (sb_pathf(path, "%s/run.json", dir))
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	else	/* written whole and synced, then renamed (results.h) */
		rc = sb_json_write_file(path, j, JSON_INDENT(2) | JSON_PRESERVE_ORDER, err, errlen);
	json_decref(j);
	return rc;
}

/* run.json says complete: is what readers take whole?  Not with
 * runs.jsonl.partial left (a session did not finish), nor without gbench.json
 * with no runs.jsonl or a cut line in it (readers say --resume runs it). */
static bool files_complete(const char *dir)
{
	char path[SB_PATH], why[SB_ERR_MAX];

	if (sb_pathf(path, "%s/runs.jsonl.partial", dir) == 0 && access(path, F_OK) == 0)
		return false;
	if (sb_pathf(path, "%s/gbench.json", dir) == 0 && access(path, F_OK) == 0)
		return true;
	sb_pathf(path, "%s/runs.jsonl", dir);
	return sb_runlog_read(path, NULL, NULL, why, sizeof(why)) == 0;	/* -1: resume says why */
}

int sb_resume_load(const char *dir, int *argc, char ***argv, bool *complete, char *err,
		   size_t errlen)
{
	char path[SB_PATH], host[256], model[512];
	json_error_t e;
	json_t *j, *a;
	const char *rhost, *rmodel, *rrev;
	FILE *f;
	int rc = -1;

	if (sb_pathf(path, "%s/run.json", dir) || access(path, F_OK)) {
		snprintf(err, errlen, "cannot resume '%s': no run.json there (not a results "
			 "directory of stratbench run --out)", dir);
		return -1;
	}
	f = sb_input_open(path, err, errlen);	/* a regular file of bounded size (results.h) */
	if (!f)
		return -1;
	j = json_loadf(f, 0, &e);
	fclose(f);
	a = json_object_get(j, "argv");
	rhost = json_string_value(json_object_get(j, "host"));
	rmodel = json_string_value(json_object_get(j, "cpu_model"));
	rrev = json_string_value(json_object_get(j, "git_revision"));
	sb_context_host(host, sizeof(host));
	sb_context_cpu_model(model, sizeof(model));
	if (!j || !json_is_array(a) || json_array_size(a) < 1 || !rhost || !rmodel || !rrev ||
	    !json_is_boolean(json_object_get(j, "complete"))) {
		snprintf(err, errlen, "cannot resume '%s': %s is malformed%s%s", dir, path,
			 j ? "" : ": ", j ? "" : e.text);
	} else if (strcmp(rhost, host) || strcmp(rmodel, model) ||
		   json_integer_value(json_object_get(j, "pus")) != sysconf(_SC_NPROCESSORS_CONF)) {
		snprintf(err, errlen, "cannot resume '%s': it was recorded on another machine "
			 "(%s, %s), this is %s, %s", dir, rhost, rmodel, host, model);
	} else if (strcmp(rrev, STRATBENCH_GIT_REV)) {
		snprintf(err, errlen, "cannot resume '%s': it was recorded by revision %s, this "
			 "is %s (results would mix two builds)", dir, rrev, STRATBENCH_GIT_REV);
	} else {
		*complete = json_is_true(json_object_get(j, "complete")) && files_complete(dir);
		*argc = (int)json_array_size(a);
		*argv = calloc(*argc + 1, sizeof(char *));
		for (size_t i = 0; i < json_array_size(a); i++) {
			const char *s = json_string_value(json_array_get(a, i));

			(*argv)[i] = strdup(s ? s : "");
		}
		rc = 0;
	}
	json_decref(j);
	return rc;
}

void sb_resume_free_argv(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}
