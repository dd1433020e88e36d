/* Helpers for the report tests (see report_util.h). */
#include "tests/report_util.h"
#include "harness/bench.h"
#include "schema/meta.h"
#include "lib/util.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

FILE *pb_csv(const char *path)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,layout,rep,offset,policy,placement,writers,readers,mem_"
		   "node,work_ns,drain_us,duration_requested_s,warmup_requested_s,"
		   "writer_ns_per_op,reader_ns_per_op,drains,thread_window_ns,host,cpu_model,label,"
		   "valid,invalid_reason,na_reason\n");
	return f;
}

/* A CSV field, quoted (any byte but NUL may be inside). */
static void field(FILE *f, const char *s, int last)
{
	fputc('"', f);
	for (; *s; s++)
		fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
	fputs(last ? "\"\n" : "\",", f);
}

void pb_row(FILE *f, const char *label, const char *host, const char *cpu, const char *layout,
	    const char *policy, int rep, double w, double r, int valid)
{
	static long window; /* each row its own, as measured: a repeated row is a copy (refused) */
	fprintf(f, "%d,pending-bit,%s,%d,%d,", SCHEMA_VERSION, layout, rep,
		!strcmp(layout, "shared") ? 32 : 64);
	field(f, policy, 0);
	fprintf(f, "same-socket,1,1,0,0,0,1,0.2,%.4f,%.4f,NA,%ld,", w, r, 1000000000 + ++window);
	field(f, host, 0);
	field(f, cpu, 0);
	field(f, label, 0);
	fprintf(f, "%s,%s,", valid ? "yes" : "no", valid ? "" : "min_duration: 0.1 s < 0.9 s");
	field(f, "drains: no drainer (--drain-us 0; the default)", 1);
}

/* Call check(dir, link) for each link (NAME.png) of dir/report.md; returns how many. */
static int each_chart(const char *dir, void (*check)(const char *dir, const char *link))
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/report.md", dir);
	char *md = slurp(p);
	int n = 0;
	assert_non_null(md);
	for (const char *s = md; (s = strstr(s, "](")); s += 2) {
		char link[256];
		if (sscanf(s + 2, "%255[^)])", link) != 1)
			continue;
		check(dir, link);
		n++;
	}
	free(md);
	return n;
}

static void png_ok(const char *dir, const char *link)
{
	char p[1024];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", dir, link);
	if (stat(p, &st))
		fail_msg("report names %s, which is missing", p);
	if (st.st_size <= 1024)
		fail_msg("%s is %lld bytes (want over 1 KB)", p, (long long)st.st_size);
	FILE *f = fopen(p, "rb");
	unsigned char sig[8] = { 0 };
	assert_int_equal(fread(sig, 1, 8, f), 8);
	fclose(f);
	assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
}

int report_pngs_ok(const char *dir)
{
	return each_chart(dir, png_ok);
}

void report_no_gnuplot_warning(const char *dir)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/gnuplot.log", dir);
	char *log = slurp(p);
	assert_non_null(log);
	for (char *c = log; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
	if (strstr(log, "warning"))
		fail_msg("gnuplot warned: %s", log);
	free(log);
}

/* Unescaped | in one line (a backslash escapes the next byte). */
static int pipes(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\') {
			i++;
			continue;
		}
		c += s[i] == '|';
	}
	return c;
}

void md_tables_well_formed(const char *text)
{
	int want = -1, tables = 0;
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n && s[0] == '|') {
			int c = pipes(s, n);
			if (want < 0)
				want = c, tables++;
			if (c != want)
				fail_msg("table line with %d cells' pipes, its table has %d: %.*s",
					 c, want, (int)n, s);
		} else {
			want = -1;
		}
		s = e ? e + 1 : s + n;
	}
	assert_true(tables > 0);
}

int html_images_load(const char *dir)
{
	char src[1024], dst[1024], cmd[4096];
	snprintf(src, sizeof(src), "%s/report.html", dir);
	snprintf(dst, sizeof(dst), "%s/check.html", dir);
	char *html = slurp(src);
	assert_non_null(html);
	char *end = strstr(html, "</body>");
	assert_non_null(end);
	FILE *f = fopen(dst, "w");
	assert_non_null(f);
	/* the check runs after load: every <img> complete with a natural width, written into the
	 * DOM */
	fprintf(f,
		"%.*s<script>window.addEventListener('load',function(){var "
		"im=document.images,ok=0,bad=[];"
		"for(var i=0;i<im.length;i++){if(im[i].complete&&im[i].naturalWidth>0)ok++;else "
		"bad.push(im[i].getAttribute('src'));}"
		"var t=document.querySelectorAll('table'),w=0;for(var "
		"i=0;i<t.length;i++)w=Math.max(w,t[i].getBoundingClientRect().width);"
		"var h=document.querySelector('h2');"
		"var d=document.createElement('pre');d.id='imgcheck';d.textContent='IMGCHECK "
		"'+ok+' of '+im.length+' maxw '+Math.ceil(w)+"
		"' missing:'+bad.join(',')+':FIRSTH2:'+(h?h.textContent:'')+':END';"
		"document.body.appendChild(d);});</script>\n%s",
		(int)(end - html), html, end);
	fclose(f);
	free(html);
	snprintf(cmd, sizeof(cmd),
		 "prof=$(mktemp -d) && /usr/bin/chromium --headless --no-sandbox --disable-gpu "
		 "--disable-background-networking --disable-component-update "
		 "--disable-sync --no-first-run --user-data-dir=$prof --window-size=1400,2000 "
		 "--virtual-time-budget=10000 --dump-dom 'file://%s' > '%s/dom.txt' "
		 "2>'%s/chromium.log'; "
		 "rc=$?; rm -rf $prof; exit $rc",
		 dst, dir, dir);
	int rc = system(cmd);
	if (rc)
		fail_msg("chromium failed (%d): see %s/chromium.log", rc, dir);
	snprintf(src, sizeof(src), "%s/dom.txt", dir);
	char *dom = slurp(src);
	assert_non_null(dom);
	const char *m =
	    strstr(dom, "<pre id=\"imgcheck\">"); /* the marker, not the script's own text */
	m = m ? m + strlen("<pre id=\"imgcheck\">") : NULL;
	if (!m)
		fail_msg("chromium's DOM has no IMGCHECK marker (the check script did not run)");
	int ok = -1, all = -2, maxw = -1;
	assert_int_equal(sscanf(m, "IMGCHECK %d of %d maxw %d", &ok, &all, &maxw), 3);
	if (ok != all)
		fail_msg("chromium loaded %d of %d images: %.300s", ok, all, m);
	if (maxw > 1200) /* an A4-wide page, at a 1,400 px window */
		fail_msg("a table is %d px wide at a 1,400 px window (want at most 1,200)", maxw);
	const char *h2 = strstr(m, ":FIRSTH2:");
	if (!h2 || strncmp(h2 + 9, "Summary:END", 11))
		fail_msg("the report's first section is not the summary: %.200s", h2 ? h2 + 9 : m);
	free(dom);
	return ok;
}

/* The chart's data file (data/NAME.dat beside NAME.png) holds a value other than 0 or NA. */
static void chart_has_data(const char *dir, const char *link)
{
	char p[1024], name[256];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(link, "."), link);
	snprintf(p, sizeof(p), "%s/data/%s.dat", dir, name);
	char *dat = slurp(p);
	if (!dat)
		fail_msg("chart %s.png has no data file %s", name, p);
	int nonzero = 0;
	for (char *line = strtok(dat, "\n"); line; line = strtok(NULL, "\n")) {
		if (*line == '#')
			continue;
		char *q = line + strcspn(line, " \t"); /* past the x (or row) column */
		for (char *e; *q; q = e) {
			double v = strtod(q, &e);
			if (e == q) { /* '?' or a word */
				e = q + 1;
				continue;
			}
			nonzero |= v != 0;
		}
	}
	if (!nonzero)
		fail_msg("chart %s.png is drawn with nothing to show (its data is all 0 or NA)",
			 name);
	free(dat);
}

int report_charts_have_data(const char *dir)
{
	return each_chart(dir, chart_has_data);
}

char *report_md_of(const char *out, const char *in1, const char *in2)
{
	struct cmd_result r;
	char p[1024];
	run_c2c(&r, "report", in1, in2 ? in2 : "-o", in2 ? "-o" : out, in2 ? out : NULL, NULL);
	if (r.status)
		fail_msg("report failed (%d): %s", r.status, r.err);
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	assert_non_null(md);
	return md;
}
