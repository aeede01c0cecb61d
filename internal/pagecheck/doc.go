// Package pagecheck loads runexp's HTML pages in a real browser and checks
// what a reader would meet: a page wider than the window, an image that
// does not load, a link that leads nowhere.
//
// # Overview
//
// [Start] runs a headless Chromium (Debian's chromium package) and drives
// it over the Chrome DevTools Protocol on the pipe that
// --remote-debugging-pipe opens (file descriptors 3 and 4, messages ended
// by NUL bytes), so no websocket, no Node.js and no Go dependency is
// needed. [Browser.Check] loads one page at the browser's width (the
// checks of this repository run at a desktop's 1280 CSS pixels and a
// phone's 390; [Browser.SetWidth]), waits for every image (lazy
// ones made eager), takes a screenshot of the page as first shown, opens
// every <details> and then measures:
//
//   - horizontal overflow: the document wider than the viewport, the
//     innermost elements that reach past its right edge (a cell whose
//     text does not wrap), and boxes that scroll sideways inside, unless
//     the box is a table whose first column is sticky (a wide table
//     scrolls in its own box with the row names in view: report.PageCSS);
//   - tables that scroll in their own box: they show a scroll cue (a
//     scroll shadow: a gradient in the box's background), and each row's
//     first cell and the cells marked key (the verdict) or pin (the
//     paper's own method) stay in view, the box scrolled to its start
//     and to its end;
//   - text: any element whose own text is set under 9 CSS pixels;
//   - figures: an image that says how tall its smallest label is in its
//     own pixels (data-text-px) must show that label at 9 CSS pixels or
//     more, unless it is a thumbnail that says so: inside a link to its
//     full image (the same file or its other format) and with a note of
//     class thumb-note in view in its <figure>;
//   - stars: in a table whose cells carry ★ (the best of a column), the
//     number a ★ cell shows first is the lowest its column shows;
//   - images: every <img> decoded with a non-zero width;
//   - links: every href a file of the results (pages link relatively and
//     never out of the results), and every fragment an id of its target.
//
// [Pages] lists the pages of a results root (its index, the scoreboard,
// every run's page and the paper reports) and [Browser.CheckRoot] checks
// them all.
//
// # Where it runs
//
// The tests check fixture pages (each broken one must fail and its fixed
// copy pass: an overflowing cell, broken links, figure labels shrunk to
// 4 px at 390 px, a ★ off its column's lowest value) and, when
// RUNEXP_PAGES names a results root, every page of it, with screenshots
// in its screenshots folder. Without Chromium they skip with a message, unless
// RUNEXP_BROWSER_CHECK=require, which CI sets (make browser-check runs the
// configs and then the tests). RUNEXP_CHROMIUM names the browser when it
// is not chromium on the PATH.
package pagecheck
