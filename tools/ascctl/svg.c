// SPDX-License-Identifier: GPL-2.0
/*
 * ascctl trace: the timeline as one self-contained SVG picture.
 *
 * Layout, top to bottom: a title (the command) and a line of totals, the
 * time axis (ticks of 1, 2 or 5 times a power of ten, labelled in ns, us,
 * ms or s), then per TPipe a header and one lane per pipe, labelled on the
 * left, and a legend.  The TPipes of a launch come together, by core,
 * under a header naming the launch, each headed with its core ("launch 1
 * core 2 (AIV 1): TPipe 5 (comm)").  In a lane a wait is a bar from its start to its end,
 * a set a triangle at the top, an alloc, fetch or release a dot at the
 * bottom, a deadlock report a dark cross; resets (grey) and leak reports
 * (red) are dashed vertical lines across the TPipe.  Failed calls are red,
 * waits that timed out orange; hand-offs are thin arrows from a set to the
 * end of the wait it satisfied: green within a TPipe, orange from a
 * cross-core set (an orange triangle) to a cross-core wait on another
 * core, teal from the last core to reach SyncAll (teal bars) to each core
 * it released.  The work items of libasc's core runtime
 * are lavender spans under the wait bars, named inside when the name fits,
 * dashed when their end is not in the trace.  Every mark has a <title>, the
 * tooltip a browser shows.  Only generic font families are named: nothing
 * is loaded from outside the file.  Text from the trace (task names, lane
 * names, the command) is escaped, and what is not valid UTF-8 or not an XML
 * character becomes U+FFFD.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ascctl.h"

#define SVG_WIDTH	1200
#define SVG_LEFT	120	/* lane labels */
#define SVG_RIGHT	24
#define SVG_PLOT	(SVG_WIDTH - SVG_LEFT - SVG_RIGHT)
#define SVG_AXIS_Y	78
#define SVG_TOP		92	/* first TPipe header */
#define SVG_HEADER	22
#define SVG_LANE	30
#define SVG_GAP		12

#define COLOR_WAIT	"#6baed6"
#define COLOR_TIMEOUT	"#fdd0a2"
#define COLOR_ERROR	"#d62728"
#define COLOR_SET	"#2ca02c"
#define COLOR_ID	"#636363"
#define COLOR_FLOW	"#2ca02c"
#define COLOR_RESET	"#555555"
#define COLOR_DEADLOCK	"#67000d"
#define COLOR_SPAN	"#dadaeb"
#define COLOR_SPAN_EDGE	"#756bb1"
#define COLOR_CROSS	"#e6550d"
#define COLOR_SYNC	"#1b9e77"
#define COLOR_SYNC_BAR	"#99d8c9"
/* Width of a character of a span's label, font-size 9, roughly. */
#define SPAN_CHAR_W	5.5
#define FONT		"font-family=\"sans-serif\""

/**
 * struct svg_ctx - where things go on the picture.
 * @f: the output.
 * @tl: the timeline.
 * @span: ns shown across the plot (at least 1).
 * @launch_y: per launch, y of its header's baseline.
 * @lane_y: per TPipe, y of its first lane.
 */
struct svg_ctx {
	FILE *f;
	const struct asc_timeline *tl;
	uint64_t span;
	int *launch_y;
	int lane_y[];
};

/* U+FFFE and U+FFFF: valid UTF-8, but not XML characters. */
static bool xml_nonchar(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	return len == 3 && u[0] == 0xef && u[1] == 0xbf && u[2] >= 0xbe;
}

static void svg_text(FILE *f, const char *s)
{
	size_t len;

	for (; *s; s += len) {
		len = asc_utf8_len(s);
		if (!len || xml_nonchar(s, len)) {
			fputs("&#xfffd;", f);
			len = len ? len : 1;
			continue;
		}
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			/* Control characters are not XML characters either. */
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fwrite(s, 1, len, f);
			break;
		}
	}
}

static double svg_x(const struct svg_ctx *c, uint64_t t)
{
	return SVG_LEFT + (double)t * SVG_PLOT / c->span;
}

static int svg_y(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	return c->lane_y[it->tpipe] + (it->lane > 0 ? it->lane : 0) * SVG_LANE;
}

/* A duration for people: "1.234 ms". */
static void fmt_time(char *buf, size_t size, uint64_t ns)
{
	if (ns >= 1000000000)
		snprintf(buf, size, "%.3f s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, size, "%.3f ms", ns / 1e6);
	else if (ns >= 1000)
		snprintf(buf, size, "%.3f us", ns / 1e3);
	else
		snprintf(buf, size, "%" PRIu64 " ns", ns);
}

static void svg_title(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	const struct asc_tl_tpipe *tp = &c->tl->tpipes[it->tpipe];
	const struct asc_rec *r = it->rec;
	char what[80], at[32], dur[32];

	asc_tl_item_title(it, what, sizeof(what));
	fmt_time(at, sizeof(at), it->start);
	fprintf(c->f, "<title>TPipe %" PRIu32 " ", tp->serial);
	svg_text(c->f, it->lane >= 0 ? tp->lanes[it->lane].label : "");
	fputs(": ", c->f);
	svg_text(c->f, what);
	fprintf(c->f, " at %s", at);
	if (it->kind == ASC_TL_WAIT) {
		fmt_time(dur, sizeof(dur), it->unfinished ? it->end - it->start : r->waited_ns);
		fprintf(c->f, ", waited %s%s", dur, it->unfinished ? " (still waiting)" : "");
	}
	if (r->kind == ASC_REC_RESET || r->kind == ASC_REC_LEAK)
		fprintf(c->f, ", %u IDs held, %u flags set", r->ids, r->flags);
	fputs(" (", c->f);
	svg_text(c->f, r->comm);
	fprintf(c->f, "-%d)</title>", r->tid);
}

/* Tick step: 1, 2 or 5 times a power of ten, at most 10 ticks. */
static uint64_t tick_step(uint64_t span)
{
	static const int mult[] = { 1, 2, 5 };
	uint64_t p = 1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (span / (p * mult[i]) <= 10)
				return p * mult[i];
		p *= 10;
	}
}

static void svg_axis(const struct svg_ctx *c, int bottom)
{
	uint64_t step = tick_step(c->span), nr_ticks = c->span / step, unit, t, i;
	const char *uname;
	double x;

	if (step >= 1000000000) {
		unit = 1000000000;
		uname = "s";
	} else if (step >= 1000000) {
		unit = 1000000;
		uname = "ms";
	} else if (step >= 1000) {
		unit = 1000;
		uname = "us";
	} else {
		unit = 1;
		uname = "ns";
	}
	fprintf(c->f, "<g class=\"axis\" " FONT " font-size=\"11\" fill=\"#333\">\n");
	fprintf(c->f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n",
		SVG_LEFT, SVG_AXIS_Y, SVG_LEFT + SVG_PLOT, SVG_AXIS_Y);
	/* Counted, not t += step up to the span: t would wrap near 2^64. */
	for (i = 0; i <= nr_ticks; i++) {
		t = i * step;
		x = svg_x(c, t);
		fprintf(c->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>"
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%" PRIu64 " %s</text>\n",
			x, SVG_AXIS_Y - 4, x, SVG_AXIS_Y, x, SVG_AXIS_Y + 1, x, bottom,
			x, SVG_AXIS_Y - 8, t / unit, uname);
	}
	fprintf(c->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">time</text>\n</g>\n",
		SVG_LEFT - 24, SVG_AXIS_Y - 8);
}

static void svg_lanes(const struct svg_ctx *c)
{
	const struct asc_timeline *tl = c->tl;
	char core[64], launch[96];
	int k, i, l, y;

	for (i = 0; i < tl->nr_launches; i++) {
		if (c->launch_y[i] < 0)
			continue;
		asc_tl_launch_name(tl, i, launch, sizeof(launch));
		fprintf(c->f, "<text x=\"4\" y=\"%d\" " FONT " font-size=\"14\" "
			"font-weight=\"bold\" fill=\"%s\">", c->launch_y[i], COLOR_CROSS);
		svg_text(c->f, launch);
		fputs("</text>\n", c->f);
	}
	for (k = 0; k < tl->nr_tpipes; k++) {
		const struct asc_tl_tpipe *tp = &tl->tpipes[tl->order[k]];

		i = tl->order[k];
		y = c->lane_y[i];
		asc_tl_core_name(tl, i, core, sizeof(core));
		fprintf(c->f, "<text x=\"%d\" y=\"%d\" " FONT " font-size=\"13\" "
			"font-weight=\"bold\" fill=\"#222\">", core[0] ? 16 : 8, y - 7);
		if (core[0]) {
			svg_text(c->f, core);
			fputs(": ", c->f);
		}
		fprintf(c->f, "TPipe %" PRIu32 " (", tp->serial);
		svg_text(c->f, tp->comm);
		fputs(")</text>\n", c->f);
		for (l = 0; l < tp->nr_lanes; l++, y += SVG_LANE) {
			fprintf(c->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
				"fill=\"%s\" fill-opacity=\"0.6\"/>"
				"<text x=\"%d\" y=\"%d\" " FONT " font-size=\"12\" "
				"text-anchor=\"end\" fill=\"#222\">", SVG_LEFT, y, SVG_PLOT,
				SVG_LANE, l % 2 ? "#ffffff" : "#f0f0f0", SVG_LEFT - 8, y + 19);
			svg_text(c->f, tp->lanes[l].label);
			fputs("</text>\n", c->f);
		}
	}
}

/* A work span: a bar the height of the lane, under the waits. */
static void svg_span(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	const struct asc_tl_tpipe *tp = &c->tl->tpipes[it->tpipe];
	const struct asc_rec *r = it->rec;
	double x = svg_x(c, it->start), w = svg_x(c, it->end) - x;
	const char *name = r->name ? r->name : "";
	char at[32], dur[32];
	int y = svg_y(c, it);

	if (w < 1)
		w = 1;
	fmt_time(at, sizeof(at), it->start);
	fmt_time(dur, sizeof(dur), it->end - it->start);
	fprintf(c->f, "<g class=\"span\"><title>TPipe %" PRIu32 " ", tp->serial);
	svg_text(c->f, tp->lanes[it->lane].label);
	fputs(": work ", c->f);
	svg_text(c->f, name);
	fprintf(c->f, " (#%" PRIu64 ") at %s, ran %s%s (", r->n, at, dur,
		it->unfinished ? " or more, its end not in the trace" : "");
	svg_text(c->f, r->comm);
	fprintf(c->f, "-%d)</title><rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"22\" "
		"fill=\"%s\" stroke=\"%s\" stroke-width=\"0.6\"%s/>", r->tid, x, y + 4, w,
		COLOR_SPAN, COLOR_SPAN_EDGE, it->unfinished ? " stroke-dasharray=\"3 2\"" : "");
	if (w >= SPAN_CHAR_W * strlen(name) + 4 && *name) {
		fprintf(c->f, "<text x=\"%.2f\" y=\"%d\" " FONT " font-size=\"9\" fill=\"%s\">",
			x + 2, y + 12, COLOR_SPAN_EDGE);
		svg_text(c->f, name);
		fputs("</text>", c->f);
	}
	fputs("</g>\n", c->f);
}

static void svg_wait(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	double x = svg_x(c, it->start), w = svg_x(c, it->end) - x;
	const char *fill = COLOR_WAIT;

	if (asc_tl_item_failed(it))
		fill = COLOR_ERROR;
	else if (it->rec->ret == -ETIMEDOUT)
		fill = COLOR_TIMEOUT;
	else if (it->rec->kind == ASC_REC_SYNC_ALL)
		fill = COLOR_SYNC_BAR;
	fprintf(c->f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"12\" fill=\"%s\"%s>",
		x, svg_y(c, it) + 10, w < 1 ? 1 : w, fill,
		it->unfinished ? " fill-opacity=\"0.5\" stroke=\"" COLOR_ERROR
				 "\" stroke-dasharray=\"3 2\"" : "");
	svg_title(c, it);
	fputs("</rect>\n", c->f);
}

static void svg_instant(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	double x = svg_x(c, it->start);
	int y = svg_y(c, it);
	bool failed = asc_tl_item_failed(it);

	switch (it->rec->kind) {
	case ASC_REC_SET:
	case ASC_REC_CROSS_SET:
		fprintf(c->f, "<path d=\"M%.2f %dl-4 -7h8z\" fill=\"%s\"%s>", x, y + 9,
			failed ? COLOR_ERROR : it->rec->kind == ASC_REC_SET ? COLOR_SET : COLOR_CROSS,
			failed ? " stroke=\"" COLOR_ERROR "\" stroke-width=\"2\"" : "");
		break;
	case ASC_REC_DEADLOCK:
	case ASC_REC_CROSS_DEADLOCK:
		fprintf(c->f, "<path d=\"M%.2f %dl12 12m0 -12l-12 12\" stroke=\"%s\" "
			"stroke-width=\"3\">", x - 6, y + 9, COLOR_DEADLOCK);
		break;
	default:
		fprintf(c->f, "<circle cx=\"%.2f\" cy=\"%d\" r=\"%s\" fill=\"%s\">", x, y + 26,
			failed ? "3.5" : "2.5", failed ? COLOR_ERROR : COLOR_ID);
		break;
	}
	svg_title(c, it);
	switch (it->rec->kind) {
	case ASC_REC_SET:
	case ASC_REC_CROSS_SET:
	case ASC_REC_DEADLOCK:
	case ASC_REC_CROSS_DEADLOCK:
		fputs("</path>\n", c->f);
		break;
	default:
		fputs("</circle>\n", c->f);
		break;
	}
}

static void svg_tpipe_mark(const struct svg_ctx *c, const struct asc_tl_item *it)
{
	const struct asc_tl_tpipe *tp = &c->tl->tpipes[it->tpipe];
	double x = svg_x(c, it->start);
	bool leak = it->rec->kind == ASC_REC_LEAK;
	int y = c->lane_y[it->tpipe];

	fprintf(c->f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"%s\" "
		"stroke-width=\"%s\" stroke-dasharray=\"4 3\">", x, y - 4, x,
		y + (tp->nr_lanes ? tp->nr_lanes : 1) * SVG_LANE,
		leak ? COLOR_ERROR : COLOR_RESET, leak ? "2" : "1");
	svg_title(c, it);
	fputs("</line>\n", c->f);
}

static void svg_flows(const struct svg_ctx *c)
{
	static const struct {
		const char *color;
		const char *marker;
		const char *width;
	} look[] = {
		[ASC_TL_FLOW_FLAG] = { COLOR_FLOW, "arrow", "0.8" },
		[ASC_TL_FLOW_CROSS] = { COLOR_CROSS, "arrow-cross", "1.2" },
		[ASC_TL_FLOW_SYNC] = { COLOR_SYNC, "arrow-sync", "1.2" },
	};
	const struct asc_timeline *tl = c->tl;
	size_t i;

	fputs("<g stroke-opacity=\"0.7\" fill=\"none\">\n", c->f);
	for (i = 0; i < tl->nr_flows; i++) {
		const struct asc_tl_flow *fl = &tl->flows[i];
		const struct asc_tl_item *set = &tl->items[fl->set];
		const struct asc_tl_item *wait = &tl->items[fl->wait];

		fprintf(c->f, "<line class=\"%s\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
			"stroke=\"%s\" stroke-width=\"%s\" marker-end=\"url(#%s)\"/>\n",
			look[fl->kind].marker, svg_x(c, set->end), svg_y(c, set) + 6,
			svg_x(c, wait->end), svg_y(c, wait) + 16, look[fl->kind].color,
			look[fl->kind].width, look[fl->kind].marker);
	}
	fputs("</g>\n", c->f);
}

static void svg_legend(const struct svg_ctx *c, int y)
{
	static const struct {
		const char *shape;
		const char *text;
	} items[] = {
		{ "<rect x=\"0\" y=\"-9\" width=\"22\" height=\"10\" fill=\"" COLOR_WAIT "\"/>",
		  "wait (flag consumed)" },
		{ "<rect x=\"0\" y=\"-9\" width=\"22\" height=\"10\" fill=\"" COLOR_TIMEOUT "\"/>",
		  "wait timed out" },
		{ "<rect x=\"0\" y=\"-11\" width=\"22\" height=\"14\" fill=\"" COLOR_SPAN
		  "\" stroke=\"" COLOR_SPAN_EDGE "\" stroke-width=\"0.6\"/>", "work (libasc)" },
		{ "<path d=\"M11 1l-4 -7h8z\" fill=\"" COLOR_SET "\"/>", "set_flag" },
		{ "<line x1=\"0\" y1=\"-4\" x2=\"20\" y2=\"-4\" stroke=\"" COLOR_FLOW
		  "\" marker-end=\"url(#arrow)\"/>", "set -> wait it satisfied" },
		{ "<path d=\"M11 1l-4 -7h8z\" fill=\"" COLOR_CROSS "\"/>", "cross-core set" },
		{ "<line x1=\"0\" y1=\"-4\" x2=\"20\" y2=\"-4\" stroke=\"" COLOR_CROSS
		  "\" marker-end=\"url(#arrow-cross)\"/>", "cross-core set -> wait" },
		{ "<rect x=\"0\" y=\"-9\" width=\"22\" height=\"10\" fill=\"" COLOR_SYNC_BAR
		  "\"/>", "SyncAll" },
		{ "<line x1=\"0\" y1=\"-4\" x2=\"20\" y2=\"-4\" stroke=\"" COLOR_SYNC
		  "\" marker-end=\"url(#arrow-sync)\"/>", "last to SyncAll -> released" },
		{ "<circle cx=\"11\" cy=\"-4\" r=\"2.5\" fill=\"" COLOR_ID "\"/>",
		  "alloc / fetch / release" },
		{ "<rect x=\"0\" y=\"-9\" width=\"22\" height=\"10\" fill=\"" COLOR_ERROR "\"/>",
		  "failed call" },
		{ "<path d=\"M5 -10l12 12m0 -12l-12 12\" stroke=\"" COLOR_DEADLOCK
		  "\" stroke-width=\"3\"/>", "deadlock report" },
		{ "<line x1=\"11\" y1=\"-12\" x2=\"11\" y2=\"3\" stroke=\"" COLOR_RESET
		  "\" stroke-dasharray=\"4 3\"/>", "reset" },
		{ "<line x1=\"11\" y1=\"-12\" x2=\"11\" y2=\"3\" stroke=\"" COLOR_ERROR
		  "\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>", "leak report" },
	};
	int x = SVG_LEFT;
	size_t i;

	fprintf(c->f, "<g " FONT " font-size=\"11\" fill=\"#333\">\n");
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		fprintf(c->f, "<g transform=\"translate(%d %d)\">%s<text x=\"28\" y=\"0\">%s</text>"
			"</g>\n", x, y, items[i].shape, items[i].text);
		x += 28 + 6 * (int)strlen(items[i].text) + 18;
		if (x > SVG_WIDTH - 160) {
			x = SVG_LEFT;
			y += 18;
		}
	}
	fputs("</g>\n", c->f);
}

/**
 * asc_svg_write() - draw a timeline as SVG.
 * @f: where to.
 * @tl: the timeline.
 *
 * Return: 0, or -1 if writing failed (or out of memory).
 */
int asc_svg_write(FILE *f, const struct asc_timeline *tl)
{
	struct svg_ctx *c;
	int i, y = SVG_TOP + SVG_HEADER, height;
	char span[32];
	size_t k;

	c = calloc(1, sizeof(*c) + (tl->nr_tpipes + 1) * sizeof(c->lane_y[0]));
	if (!c)
		return -1;
	c->launch_y = malloc((tl->nr_launches + 1) * sizeof(*c->launch_y));
	if (!c->launch_y) {
		free(c);
		return -1;
	}
	c->f = f;
	c->tl = tl;
	c->span = tl->span ? tl->span : 1;
	for (i = 0; i < tl->nr_launches; i++)
		c->launch_y[i] = -1;
	for (k = 0; k < (size_t)tl->nr_tpipes; k++) {
		const struct asc_tl_tpipe *tp = &tl->tpipes[tl->order[k]];

		/* A launch's header before its first core. */
		if (tp->launch >= 0 && c->launch_y[tp->launch] < 0) {
			c->launch_y[tp->launch] = y - 7;
			y += SVG_HEADER;
		}
		c->lane_y[tl->order[k]] = y;
		y += (tp->nr_lanes ? tp->nr_lanes : 1) * SVG_LANE + SVG_GAP + SVG_HEADER;
	}
	height = y + 84;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n"
		"<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
		"markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
		"<path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/></marker>"
		"<marker id=\"arrow-cross\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
		"markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
		"<path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/></marker>"
		"<marker id=\"arrow-sync\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
		"markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">"
		"<path d=\"M0 0L10 5L0 10z\" fill=\"%s\"/></marker></defs>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
		SVG_WIDTH, height, SVG_WIDTH, height, COLOR_FLOW, COLOR_CROSS, COLOR_SYNC);
	fmt_time(span, sizeof(span), tl->span);
	fprintf(f, "<text x=\"8\" y=\"24\" " FONT " font-size=\"16\" font-weight=\"bold\" "
		"fill=\"#222\">asc_event timeline: ");
	svg_text(f, tl->trace->command ? tl->trace->command : "");
	fprintf(f, "</text>\n<text x=\"8\" y=\"44\" " FONT " font-size=\"12\" fill=\"#555\">"
		"%zu events, %d TPipe%s, %zu hand-offs, %zu spans, %zu failed; %s from the first "
		"event (CLOCK_MONOTONIC)%s</text>\n", tl->trace->nr_recs - tl->trace->span_lines,
		tl->nr_tpipes, tl->nr_tpipes == 1 ? "" : "s", tl->nr_flows, tl->nr_spans,
		tl->nr_errors, span, tl->trace->lost ? "; events were lost" : "");

	svg_axis(c, y - SVG_HEADER - SVG_GAP);
	svg_lanes(c);
	for (k = 0; k < tl->nr_items; k++)
		if (tl->items[k].kind == ASC_TL_SPAN)
			svg_span(c, &tl->items[k]);
	for (k = 0; k < tl->nr_items; k++)
		if (tl->items[k].kind == ASC_TL_WAIT)
			svg_wait(c, &tl->items[k]);
	svg_flows(c);
	for (k = 0; k < tl->nr_items; k++) {
		if (tl->items[k].kind == ASC_TL_INSTANT)
			svg_instant(c, &tl->items[k]);
		else if (tl->items[k].kind == ASC_TL_TPIPE)
			svg_tpipe_mark(c, &tl->items[k]);
	}
	svg_legend(c, y + 8);
	fputs("</svg>\n", f);
	free(c->launch_y);
	free(c);
	return ferror(f) ? -1 : 0;
}
