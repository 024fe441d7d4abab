/* gnuplot.c — one figure written and drawn (figure.h).  NAME.gp holds its variables, common.gp
 * and its template: it re-runs alone (cd DIR/plots && gnuplot NAME.gp), exactly as drawn.  Any
 * gnuplot output fails it: a warning is a figure drawn wrong (an empty range, a missing column). */
#include "figures/figure.h"

#include "core/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct sb_gp {
	struct sb_plot *p;
	char name[128], tpl[64];
	char *vars;			/* gnuplot assignments */
	int len, cap;
	FILE *dat;
};

static __attribute__((format(printf, 2, 3))) void put(struct sb_gp *g, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || SB_GROW(g->vars, g->cap, g->len + n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(g->vars + g->len, (size_t)(g->cap - g->len), fmt, ap);
	va_end(ap);
	g->len += n;
}

/* s as a gnuplot double-quoted string (\n: a line break in titles), then a newline */
static void put_quoted(struct sb_gp *g, const char *s)
{
	put(g, "\"");
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			put(g, "\\%c", *s);
		else if (*s == '\n')
			put(g, "\\n");
		else if ((unsigned char)*s < 0x20)
			put(g, " ");
		else
			put(g, "%c", *s);
	}
	put(g, "\"\n");
}

static void put_num(struct sb_gp *g, double v)
{
	if (isnan(v))
		put(g, "NaN\n");
	else
		put(g, "%.10g\n", isinf(v) ? copysign(1e300, v) : v);
}

struct sb_gp *sb_gp_new(struct sb_plot *p, const char *name, const char *tpl)
{
	struct sb_gp *g = calloc(1, sizeof(*g));
	char path[SB_PATH];

	if (!g) {
		snprintf(p->err, p->errlen, "out of memory");
		return NULL;
	}
	g->p = p;
	snprintf(g->name, sizeof(g->name), "%s", name);
	sb_plot_slug(g->name);
	snprintf(g->tpl, sizeof(g->tpl), "%s", tpl);
	if (sb_pathf(path, "%s/plots/%s.dat", p->dir, g->name) || !(g->dat = fopen(path, "w"))) {
		snprintf(p->err, p->errlen, "cannot write %s: %s", path, strerror(errno));
		free(g);
		return NULL;
	}
	fprintf(g->dat, "# %s.dat — stratbench plot: the numbers of %s.png (see %s.gp)\n", g->name,
		g->name, g->name);
	return g;
}

FILE *sb_gp_dat(struct sb_gp *g)
{
	return g->dat;
}

void sb_gp_dat_num(FILE *f, double v)
{
	fprintf(f, isnan(v) ? " NaN" : " %.9g", v);
}

void sb_gp_num(struct sb_gp *g, const char *var, double v)
{
	put(g, "%s = ", var);
	put_num(g, v);
}

void sb_gp_str(struct sb_gp *g, const char *var, const char *s)
{
	put(g, "%s = ", var);
	put_quoted(g, s);
}

void sb_gp_array(struct sb_gp *g, const char *var, int n, bool str)
{
	if (n > 0)
		put(g, "array %s[%d]\n", var, n);
	else
		put(g, "array %s[1] = [%s]\n", var, str ? "\"\"" : "0");
}

void sb_gp_num_at(struct sb_gp *g, const char *var, int i, double v)
{
	put(g, "%s[%d] = ", var, i);
	put_num(g, v);
}

void sb_gp_str_at(struct sb_gp *g, const char *var, int i, const char *s)
{
	put(g, "%s[%d] = ", var, i);
	put_quoted(g, s);
}

void sb_gp_wrap(char *t)
{
	char *line = t, *brk = NULL;

	for (char *c = t; *c; c++) {
		if (*c == '\n') {
			line = c + 1;
			brk = NULL;
			continue;
		}
		if (*c == ' ' && c > t && (c[-1] == ';' || c[-1] == ','))
			brk = c;
		if (c - line > 110 && brk) {
			*brk = '\n';
			line = brk + 1;
			brk = NULL;
		}
	}
}

/* Appends the file's text to f; -1 with err set when it cannot be read. */
static int append_file(FILE *f, const char *path, char *err, size_t errlen)
{
	FILE *in = fopen(path, "r");
	char buf[8192];
	size_t k;

	if (!in) {
		snprintf(err, errlen, "no gnuplot template %s (%s): reinstall stratbench or set "
			 "SB_PLOTS to the templates' directory", path, strerror(errno));
		return -1;
	}
	fprintf(f, "\n# ---- %s\n", path);
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, k, f);
	fclose(in);
	return 0;
}

static int write_script(struct sb_gp *g, const char *title)
{
	struct sb_plot *p = g->p;
	char path[SB_PATH], tpl[SB_PATH];
	FILE *f = NULL;
	int rc;

	if (sb_pathf(path, "%s/plots/%s.gp", p->dir, g->name) || !(f = fopen(path, "w"))) {
		snprintf(p->err, p->errlen, "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# %s.gp — written by stratbench plot: the figure's variables, then the\n"
		"# templates common.gp and %s.gp; cd here and run gnuplot %s.gp\n", g->name,
		g->tpl, g->name);
	sb_gp_str(g, "outbase", g->name);
	put(g, "datafile = \"%s.dat\"\n", g->name);
	sb_gp_str(g, "plottitle", title);
	fwrite(g->vars, 1, (size_t)g->len, f);
	sb_pathf(tpl, "%s/common.gp", p->tpldir);
	rc = append_file(f, tpl, p->err, p->errlen);
	sb_pathf(tpl, "%s/%s.gp", p->tpldir, g->tpl);
	if (!rc)
		rc = append_file(f, tpl, p->err, p->errlen);
	/* ferror: a short fprintf/fwrite above is sticky on the stream */
	if ((ferror(f) | fclose(f)) && !rc) {
		snprintf(p->err, p->errlen, "cannot write %s: %s", path,
			 strerror(errno ? errno : EIO));
		rc = -1;
	}
	return rc;
}

/* Runs gnuplot NAME.gp in dir; out gets what it printed; its status. */
static int run_gnuplot(const char *dir, const char *name, char *out, size_t outlen)
{
	int fd[2], status = 0;
	size_t len = 0;
	ssize_t k;
	char buf[4096];
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char script[200];

		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		close(fd[1]);
		snprintf(script, sizeof(script), "%s.gp", name);
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while ((k = read(fd[0], buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR))
		for (ssize_t i = 0; i < k && len + 1 < outlen; i++)
			out[len++] = buf[i];
	out[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

static bool nonempty(const char *dir, const char *name, const char *ext)
{
	char path[SB_PATH];
	struct stat st;

	return !sb_pathf(path, "%s/%s.%s", dir, name, ext) && stat(path, &st) == 0 &&
	       st.st_size > 0;
}

/* gnuplot's message as one line: lines joined by " | ", blanks and error carets as one blank */
static void one_line(char *s, size_t n)
{
	char out[2048];
	size_t k = 0;

	for (char *c = s; *c && k + 4 < sizeof(out); c++) {
		bool blank = *c == ' ' || *c == '\t' || *c == '^';

		if (*c == '\n') {
			while (k && out[k - 1] == ' ')
				k--;
			if (k && c[1] && out[k - 1] != '|') {
				memcpy(out + k, " | ", 3);
				k += 3;
			}
		} else if (!blank || (k && out[k - 1] != ' ')) {
			out[k++] = blank ? ' ' : *c;
		}
	}
	out[k] = '\0';
	snprintf(s, n, "%s", out);
}

/* gnuplot's verdict on g: 0, or -1 with one line naming the figure */
static int check_run(struct sb_gp *g, const char *dir)
{
	struct sb_plot *p = g->p;
	char out[2048], path[SB_PATH];
	int st;

	for (int k = 0; k < 2; k++)
		if (!sb_pathf(path, "%s/%s.%s", dir, g->name, k ? "svg" : "png"))
			unlink(path);
	st = run_gnuplot(dir, g->name, out, sizeof(out));
	if (st < 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 127 && !*out)) {
		snprintf(p->err, p->errlen, "cannot run gnuplot (Debian: apt-get install "
			 "gnuplot-nox)");
		return -1;
	}
	if (*out || !WIFEXITED(st) || WEXITSTATUS(st)) {
		one_line(out, sizeof(out));
		snprintf(p->err, p->errlen, "gnuplot %s on figure %s (template %s.gp, %s/%s.gp): %s",
			 *out ? "warned" : "failed", g->name, g->tpl, dir, g->name,
			 *out ? out : "no message");
		sb_err_oneline(p->err);
		return -1;
	}
	if (!nonempty(dir, g->name, "png") || !nonempty(dir, g->name, "svg")) {
		snprintf(p->err, p->errlen, "gnuplot wrote no %s/%s.png or .svg (template %s.gp)",
			 dir, g->name, g->tpl);
		return -1;
	}
	return 0;
}

static int add_fig(struct sb_gp *g, const char *dir, const char *title, const char *what,
		   const char *how, int nnoisy)
{
	struct sb_figs *figs = g->p->figs;
	struct sb_fig *f;

	if (SB_GROW(figs->v, figs->cap, figs->n + 1)) {
		snprintf(g->p->err, g->p->errlen, "out of memory");
		return -1;
	}
	f = &figs->v[figs->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", g->name);
	snprintf(f->title, sizeof(f->title), "%s", title);
	snprintf(f->caption[0], sizeof(f->caption[0]), "%s", what);
	snprintf(f->caption[1], sizeof(f->caption[1]), "%s", how);
	sb_pathf(f->svg, "%s/%s.svg", dir, g->name);	/* it was written: the path fits */
	snprintf(f->tpl, sizeof(f->tpl), "%.60s.gp", g->tpl);
	f->nnoisy = nnoisy;
	return 0;
}

int sb_gp_draw(struct sb_gp *g, const char *title, const char *what, const char *how,
	       int nnoisy)
{
	struct sb_plot *p = g->p;
	char dir[SB_PATH];
	int rc;

	sb_pathf(dir, "%s/plots", p->dir);	/* sb_gp_new wrote a file under it */
	rc = ferror(g->dat) | fclose(g->dat);	/* every fprintf to it, checked here */
	if (rc)
		snprintf(p->err, p->errlen, "cannot write %s/%s.dat: %s", dir, g->name,
			 strerror(errno ? errno : EIO));
	if (!rc)
		rc = write_script(g, title);
	if (!rc)
		rc = check_run(g, dir);
	if (!rc)
		rc = add_fig(g, dir, title, what, how, nnoisy);
	free(g->vars);
	free(g);
	return rc;
}
