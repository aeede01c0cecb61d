package pagecheck

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/report"
)

// Result is what the browser found on one page.
type Result struct {
	Page string // the file checked
	// ClientWidth and ScrollWidth are the document's visible and full
	// widths in CSS pixels, with every <details> open; a ScrollWidth over
	// ClientWidth is a horizontal scroll bar.
	ClientWidth, ScrollWidth int
	// Overflow names the elements that reach past the right edge of the
	// viewport and hold no element that does (the cell, not its table
	// and row), at most maxListed of them.
	Overflow []string
	// Scrollers names boxes that scroll sideways inside the page and are
	// not a table that keeps its first column in view (an overflow: auto
	// wrapper wider than the page).
	Scrollers []string
	// Boxes names the tables that scroll sideways in their own box with
	// their first column fixed (position: sticky), as a wide table must
	// at a phone's width; they are not a problem.
	Boxes []string
	// NoCue names the boxes of Boxes that show no sign that they scroll:
	// no scroll shadow (a gradient in their background, report.PageCSS).
	NoCue []string
	// HiddenKeys names the tables that scroll in their own box and lose a
	// cell that must stay in view, at the start or scrolled to the end:
	// a row's first cell (its name) or a cell marked key (the verdict) or
	// pin (the paper's own method in the paper's layout).
	HiddenKeys []string
	// PinCovers names the header cells of a table scrolling in its box
	// that can never be read whole: wider than the room the sticky first
	// column and the pinned column (the paper's own method) leave
	// between them, so that at every scroll position the pinned column
	// covers part of that method's name.
	PinCovers []string
	// BadStars names the table columns whose cell marked ★ (the best) does
	// not show the lowest number of the column: the number a ★ cell
	// shows first is not the least of the numbers the column's cells show
	// first.
	BadStars []string
	// SmallText names elements whose own text is set under MinTextPx CSS
	// pixels.
	SmallText []string
	// SmallFigures names figures (images with a data-text-px attribute:
	// the height of their smallest label, in the image's own pixels)
	// shown so small that the label falls under MinTextPx CSS pixels,
	// unless they say so: the image is inside a link to its full image
	// (the same file, or the figure's other format: NAME.png, NAME.svg)
	// and its <figure> shows a note (an element of class thumb-note, in
	// view) that it is a thumbnail to open.
	SmallFigures []string
	// BrokenImages lists the src of every image that did not load.
	BrokenImages []string
	// BrokenLinks lists "href: why" for every link that does not resolve:
	// a missing file, a fragment no element of the target has, or a link
	// out of the results (the pages link only relatively).
	BrokenLinks []string
	// Links counts the links checked, Images the images.
	Links, Images int
	// Screenshot is the PNG of the whole page as first shown (details
	// closed), or "" when none was asked for.
	Screenshot string
}

// maxListed bounds the overflowing elements listed per page.
const maxListed = 8

// MinTextPx is the smallest text a page may set, in CSS pixels, and the
// smallest a figure's labels may be drawn at as shown, unless the figure
// says it is a thumbnail and links its full image.
const MinTextPx = 9

// OK reports whether the page has none of the problems checked.
func (r *Result) OK() bool {
	return r.ScrollWidth <= r.ClientWidth && len(r.Overflow) == 0 && len(r.Scrollers) == 0 &&
		len(r.BrokenImages) == 0 && len(r.BrokenLinks) == 0 && len(r.SmallText) == 0 && len(r.SmallFigures) == 0 &&
		len(r.NoCue) == 0 && len(r.HiddenKeys) == 0 && len(r.BadStars) == 0 && len(r.PinCovers) == 0
}

// Problems describes each problem in one line.
func (r *Result) Problems() []string {
	var p []string
	if r.ScrollWidth > r.ClientWidth {
		p = append(p, fmt.Sprintf("scrolls sideways: %d px wide in a %d px viewport", r.ScrollWidth, r.ClientWidth))
	}
	for _, o := range r.Overflow {
		p = append(p, "past the right edge: "+o)
	}
	for _, s := range r.Scrollers {
		p = append(p, "scrolls sideways inside: "+s)
	}
	for _, s := range r.SmallText {
		p = append(p, fmt.Sprintf("text under %d px: %s", MinTextPx, s))
	}
	for _, s := range r.SmallFigures {
		p = append(p, fmt.Sprintf("figure labels under %d px: %s", MinTextPx, s))
	}
	for _, s := range r.NoCue {
		p = append(p, "scrolls with no scroll shadow: "+s)
	}
	for _, s := range r.HiddenKeys {
		p = append(p, "out of view as it scrolls: "+s)
	}
	for _, s := range r.PinCovers {
		p = append(p, "never shown whole beside the pinned column: "+s)
	}
	for _, s := range r.BadStars {
		p = append(p, "★ not on the lowest value shown: "+s)
	}
	for _, i := range r.BrokenImages {
		p = append(p, "image does not load: "+i)
	}
	for _, l := range r.BrokenLinks {
		p = append(p, "link does not resolve: "+l)
	}
	return p
}

// pageScript waits for the page and its images (lazy ones made eager),
// takes no screenshot, opens every <details> and measures. It returns a
// JSON object; the page's own scripts, if any, are not needed.
const pageScript = `(async () => {
  if (document.readyState !== 'complete') {
    await new Promise(r => addEventListener('load', r, {once: true}));
  }
  const imgs = [...document.images];
  for (const i of imgs) i.loading = 'eager';
  const loaded = await Promise.all(imgs.map(i => i.decode().then(() => i.naturalWidth > 0, () => false)));
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  return {
    href: location.href,
    height: document.documentElement.scrollHeight,
    badImages: imgs.filter((_, k) => !loaded[k]).map(i => i.getAttribute('src')),
    images: imgs.length,
    links, ids,
  };
})()`

// measureScript opens every <details> (a closed one hides what overflows)
// and lists what reaches past the viewport, and the tables, figures and
// stars that fail their rules (Result).
var measureScript = strings.NewReplacer("MIN", fmt.Sprint(MinTextPx)).Replace(`(() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const de = document.documentElement;
  const vw = de.clientWidth;
  const describe = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.className && typeof el.className === 'string') s += '.' + el.className.trim().split(/\s+/).join('.');
    const t = (el.textContent || '').replace(/\s+/g, ' ').trim();
    return s + ' "' + (t.length > 60 ? t.slice(0, 57) + '...' : t) + '"';
  };
  // An element inside a box that clips or scrolls sideways (a wide
  // table in its own box) is not past the edge: its box is.
  const clipped = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    }
    return false;
  };
  const past = el => { const r = el.getBoundingClientRect(); return (r.width > 0 || r.height > 0) && r.right > vw + 0.5 && !clipped(el); };
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!past(el) || [...el.children].some(past)) continue;
    over.push(describe(el) + ' ends at ' + Math.round(el.getBoundingClientRect().right) + ' px');
  }
  const scrollers = [], boxes = [];
  const stickyFirst = el => {
    const row = el.querySelector('tr');
    const cell = row && row.firstElementChild;
    return el.tagName === 'TABLE' && !!cell && getComputedStyle(cell).position === 'sticky';
  };
  const noCue = [], hidden = [];
  // The cells that must stay in view in a table scrolling in its box:
  // each row's first, and those marked key or pin.
  const keysInView = (t, when) => {
    const b = t.getBoundingClientRect();
    const left = b.left + t.clientLeft, right = left + t.clientWidth;
    for (const row of t.querySelectorAll('tr')) {
      const cells = [row.firstElementChild, ...row.querySelectorAll(':scope > .key, :scope > .pin')];
      for (const c of cells) {
        const r = c ? c.getBoundingClientRect() : null;
        if (!r || r.width === 0) continue;
        if (r.left < left - 1 || r.right > right + 1) {
          hidden.push(describe(t) + ': ' + describe(c) + ' ' + when);
          return;
        }
      }
    }
  };
  // A header cell between the sticky first column and the pinned one
  // must fit the room they leave, or no scroll position shows its name
  // whole: the pinned column covers part of it wherever it stands.
  const pinCovers = [];
  const pinRoom = t => {
    const head = t.querySelector('tr');
    const pin = head && head.querySelector(':scope > .pin');
    if (!pin) return;
    const first = head.firstElementChild;
    const room = t.clientWidth - first.getBoundingClientRect().width - pin.getBoundingClientRect().width;
    for (const c of head.children) {
      if (c === first || c === pin) continue;
      const w = c.getBoundingClientRect().width;
      if (w > room + 1) pinCovers.push(describe(t) + ': ' + describe(c) + ' ' + Math.round(w) + ' px wide, ' + Math.round(room) + ' px between the sticky columns');
    }
  };
  for (const el of document.body.querySelectorAll('*')) {
    const ox = getComputedStyle(el).overflowX;
    if ((ox === 'auto' || ox === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
      const what = describe(el) + ' ' + el.scrollWidth + ' px in ' + el.clientWidth;
      if (!stickyFirst(el)) { scrollers.push(what); continue; }
      boxes.push(what);
      if (!getComputedStyle(el).backgroundImage.includes('gradient')) noCue.push(what);
      const keep = el.scrollLeft;
      el.scrollLeft = 0;
      keysInView(el, 'at the start');
      el.scrollLeft = el.scrollWidth;
      keysInView(el, 'scrolled to the end');
      el.scrollLeft = keep;
      pinRoom(el);
    }
  }
  // A ★ marks the best of its column: the number it shows first (the
  // mean, before its rank) is the lowest that column's cells show first.
  const stars = [];
  const firstNumber = c => {
    const m = c.textContent.match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/i);
    return m ? parseFloat(m[0]) : NaN;
  };
  for (const t of document.querySelectorAll('table')) {
    const cols = [];
    for (const row of t.querySelectorAll('tr')) {
      [...row.children].forEach((c, j) => { if (c.tagName === 'TD') (cols[j] = cols[j] || []).push(c); });
    }
    const heads = [...t.querySelectorAll('thead th')];
    cols.forEach((cells, j) => {
      const starred = cells.filter(c => c.textContent.includes('\u2605'));
      if (!cells || starred.length === 0) return;
      const lo = Math.min(...cells.map(firstNumber).filter(v => !isNaN(v)));
      for (const c of starred) {
        const v = firstNumber(c);
        if (!(v <= lo)) {
          const head = heads[j] ? ' "' + heads[j].textContent.trim() + '"' : '';
          stars.push(describe(t) + ' column ' + (j + 1) + head + ': \u2605 on ' + v + ' while ' + lo + ' is shown');
        }
      }
    });
  }
  const small = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const fs = parseFloat(getComputedStyle(el).fontSize);
    if (fs < MIN - 0.01) small.push(describe(el) + ' at ' + fs.toFixed(1) + ' px');
  }
  // A figure whose labels are shown under the minimum passes only as a
  // thumbnail that says so (a note of class thumb-note in view in its
  // figure) and links its full image (the same file or its other format).
  const stem = u => new URL(u, location.href).pathname.replace(/\.(png|svg)$/i, '');
  const linksFull = img => { const a = img.closest('a[href]'); return !!a && stem(a.href) === stem(img.src); };
  const saysThumb = img => {
    const f = img.closest('figure');
    return !!f && [...f.querySelectorAll('.thumb-note')].some(n => {
      const r = n.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility === 'visible' && n.textContent.trim() !== '';
    });
  };
  const smallFigs = [];
  for (const img of document.images) {
    const tp = parseFloat(img.dataset.textPx || '');
    if (!(tp > 0) || !(img.naturalWidth > 0)) continue;
    const shown = img.getBoundingClientRect().width / img.naturalWidth * tp;
    if (shown >= MIN - 0.01) continue;
    const link = linksFull(img), note = saysThumb(img);
    if (link && note) continue;
    const why = !link ? 'not a link to its full image' : 'no thumbnail note in view';
    smallFigs.push((img.getAttribute('src') || '') + ': labels ' + shown.toFixed(1) + ' px (' + img.naturalWidth + ' px wide shown at ' + Math.round(img.getBoundingClientRect().width) + '; ' + why + ')');
  }
  return {clientWidth: vw, scrollWidth: de.scrollWidth, over, scrollers, boxes, noCue, hidden, stars, small, smallFigs, pinCovers};
})()`)

// maxShotHeight bounds a screenshot's height in CSS pixels: the first
// screens are what a reader judges, and a 40-claim page need not become a
// 30 MB PNG.
const maxShotHeight = 6000

// Check loads the HTML file page, waits for its images, screenshots it to
// screenshot (a PNG; "" for none) and checks it: no horizontal overflow at
// the browser's width with every <details> open, every image loaded, every
// link resolved to a file of the results, and every fragment to an id of
// its target.
func (b *Browser) Check(ctx context.Context, page, screenshot string) (*Result, error) {
	abs, err := filepath.Abs(page)
	if err != nil {
		return nil, err
	}
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	if err := b.c.call(ctx, b.session, "Page.navigate", map[string]any{"url": u}, nil); err != nil {
		return nil, b.withStderr(err)
	}
	var loaded struct {
		Href      string   `json:"href"`
		Height    int      `json:"height"`
		BadImages []string `json:"badImages"`
		Images    int      `json:"images"`
		Links     []string `json:"links"`
		IDs       []string `json:"ids"`
	}
	if err := b.eval(ctx, pageScript, &loaded); err != nil {
		return nil, err
	}
	if loaded.Href != u {
		return nil, fmt.Errorf("pagecheck: %s: the browser shows %s", page, loaded.Href)
	}
	r := &Result{Page: page, BrokenImages: loaded.BadImages, Images: loaded.Images, Links: len(loaded.Links)}
	if screenshot != "" {
		if err := b.screenshot(ctx, screenshot, min(loaded.Height, maxShotHeight)); err != nil {
			return nil, err
		}
		r.Screenshot = screenshot
	}
	var m struct {
		ClientWidth int      `json:"clientWidth"`
		ScrollWidth int      `json:"scrollWidth"`
		Over        []string `json:"over"`
		Scrollers   []string `json:"scrollers"`
		Boxes       []string `json:"boxes"`
		NoCue       []string `json:"noCue"`
		Hidden      []string `json:"hidden"`
		Stars       []string `json:"stars"`
		Small       []string `json:"small"`
		SmallFigs   []string `json:"smallFigs"`
		PinCovers   []string `json:"pinCovers"`
	}
	if err := b.eval(ctx, measureScript, &m); err != nil {
		return nil, err
	}
	r.ClientWidth, r.ScrollWidth, r.Scrollers = m.ClientWidth, m.ScrollWidth, m.Scrollers
	r.Overflow = m.Over[:min(len(m.Over), maxListed)]
	r.Boxes, r.SmallFigures, r.NoCue, r.BadStars = m.Boxes, m.SmallFigs, m.NoCue, m.Stars
	r.HiddenKeys = m.Hidden[:min(len(m.Hidden), maxListed)]
	r.PinCovers = m.PinCovers[:min(len(m.PinCovers), maxListed)]
	r.SmallText = m.Small[:min(len(m.Small), maxListed)]
	r.BrokenLinks = checkLinks(abs, loaded.Links, loaded.IDs)
	return r, nil
}

// eval runs a script in the page, awaiting a promise, and decodes its
// value into v.
func (b *Browser) eval(ctx context.Context, script string, v any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := b.c.call(ctx, b.session, "Runtime.evaluate", map[string]any{"expression": script, "awaitPromise": true, "returnByValue": true}, &res)
	if err != nil {
		return b.withStderr(err)
	}
	if e := res.Exception; e != nil {
		return fmt.Errorf("pagecheck: script: %s %s", e.Text, e.Exception.Description)
	}
	return json.Unmarshal(res.Result.Value, v)
}

func (b *Browser) screenshot(ctx context.Context, path string, height int) error {
	var shot struct {
		Data string `json:"data"`
	}
	params := map[string]any{
		"format":                "png",
		"captureBeyondViewport": true,
		"clip":                  map[string]any{"x": 0, "y": 0, "width": b.Width, "height": max(height, 1), "scale": 1},
	}
	if err := b.c.call(ctx, b.session, "Page.captureScreenshot", params, &shot); err != nil {
		return b.withStderr(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		return fmt.Errorf("pagecheck: screenshot: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return report.WriteFileAtomic(path, png)
}

// idAttr finds id attributes in a page that links point into.
var idAttr = regexp.MustCompile(`\sid="([^"]*)"`)

// checkLinks returns "href: why" for each link of the page at abs (links as
// the browser resolved them) that does not resolve; ids are the page's own.
func checkLinks(abs string, links, ids []string) []string {
	var bad []string
	idsOf := map[string][]string{abs: ids}
	for _, l := range links {
		u, err := url.Parse(l)
		if err != nil {
			bad = append(bad, l+": "+err.Error())
			continue
		}
		if u.Scheme != "file" {
			bad = append(bad, l+": leaves the results (the pages link only to their own files)")
			continue
		}
		target := filepath.FromSlash(u.Path)
		fi, err := os.Stat(target)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			bad = append(bad, l+": no such file")
			continue
		case err != nil:
			bad = append(bad, l+": "+err.Error())
			continue
		case fi.IsDir():
			bad = append(bad, l+": a folder, not a page")
			continue
		}
		if u.Fragment == "" {
			continue
		}
		if !strings.HasSuffix(target, ".html") {
			bad = append(bad, l+": a fragment into a file that is not a page")
			continue
		}
		tids, ok := idsOf[target]
		if !ok {
			b, err := os.ReadFile(target)
			if err != nil {
				bad = append(bad, l+": "+err.Error())
				continue
			}
			for _, m := range idAttr.FindAllStringSubmatch(string(b), -1) {
				tids = append(tids, html.UnescapeString(m[1]))
			}
			idsOf[target] = tids
		}
		if !slices.Contains(tids, u.Fragment) {
			bad = append(bad, l+": no element with id "+u.Fragment)
		}
	}
	return bad
}
