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
//   - text: any element whose own text is set under 9 CSS pixels;
//   - figures: an image that says how tall its smallest label is in its
//     own pixels (data-text-px) must show that label at 9 CSS pixels or
//     more, unless it is a thumbnail (class thumb) inside a link to the
//     full image, or the window is a phone's (under 600 px) and the image
//     links to its full size;
//   - images: every <img> decoded with a non-zero width;
//   - links: every href a file of the results (pages link relatively and
//     never out of the results), and every fragment an id of its target.
//
// [Pages] lists the pages of a results root (its index, the scoreboard and
// every run's page) and [Browser.CheckRoot] checks them all.
//
// # Where it runs
//
// The tests check fixture pages (one with an overflowing cell, which must
// fail, and its fixed copy, which must pass) and, when RUNEXP_PAGES names a
// results root, every page of it, with screenshots in its screenshots
// folder. Without Chromium they skip with a message, unless
// RUNEXP_BROWSER_CHECK=require, which CI sets (make browser-check runs the
// configs and then the tests). RUNEXP_CHROMIUM names the browser when it
// is not chromium on the PATH.
package pagecheck
