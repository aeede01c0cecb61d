package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// Bounds on what a config may ask for, checked before anything is
// allocated for it. A config beyond them is an error naming the limit.
const (
	// MaxNodes bounds the YAML nodes of a config after alias expansion:
	// a few kilobytes of nested aliases ("billion laughs") would
	// otherwise expand to gigabytes. The largest shipped config has
	// under 1,000 nodes.
	MaxNodes = 100_000
	// MaxFileBytes bounds a config file's size (the largest shipped
	// config is under 30 KB).
	MaxFileBytes = 4 << 20
	// MaxFigureCm bounds outputs.width and outputs.height (centimetres).
	MaxFigureCm = 100
	// MaxRepeats bounds repeats: every cell runs once per corruption
	// draw, and 100 draws already put a 95% interval's Monte Carlo error
	// far below the spread between test items.
	MaxRepeats = 100
)

// CheckFileName reports whether name is a plain file or folder name that
// stays inside the folder it is joined to: not empty, no path separator,
// not "." or "..", not hidden (a leading dot would collide with runexp's
// own .cache, .lock and staging folders), and made of letters, digits,
// '.', '_' and '-' only: a name is also a link target and a word in
// REPORT.md and the pages, where a quote, a bracket, "<" or a space
// would be markup (a figure_name of "\"><img src=x onerror=…>" is not a
// file name).
func CheckFileName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty name")
	case name == "." || name == "..":
		return fmt.Errorf("%q is not a name", Excerpt(name))
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%q holds a path separator; want a plain name", Excerpt(name))
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q starts with a dot; want a plain name", Excerpt(name))
	}
	for _, r := range name {
		switch {
		case unicode.IsControl(r):
			return fmt.Errorf("%q holds a control character", Excerpt(name))
		case !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("._-", r):
			return fmt.Errorf("%q holds %q; want letters, digits, '.', '_' and '-' only (the name is also a link and a word in the reports, where quotes, brackets or spaces would be markup)", Excerpt(name), r)
		}
	}
	if !filepath.IsLocal(name) {
		return fmt.Errorf("%q is not a local name", Excerpt(name))
	}
	return nil
}

// checkRelDir reports whether dir is a relative path of plain names (see
// CheckFileName), so joined to --out it stays inside it.
func checkRelDir(dir string) error {
	if filepath.IsAbs(dir) || strings.HasPrefix(dir, "/") || strings.HasPrefix(dir, `\`) {
		return fmt.Errorf("%q is absolute; want a folder under --out", Excerpt(dir))
	}
	for _, part := range strings.FieldsFunc(dir, func(r rune) bool { return r == '/' || r == '\\' }) {
		if err := CheckFileName(part); err != nil {
			return err
		}
	}
	if strings.Trim(dir, `/\`) == "" {
		return fmt.Errorf("%q names no folder", Excerpt(dir))
	}
	return nil
}

// countValues counts, without parsing, the values b holds at least: one
// per line with content and one per comma outside quotes and comments
// (a flow list's separators). The YAML parser builds a node of about
// 200 bytes for each, so a 4 MB flat list of 1.9 million numbers would
// take 400 MB before the walker's node bound (MaxNodes) sees it; this
// count refuses it first. line is the line on which the count passed
// MaxNodes (0 if it did not). A quote opened by an apostrophe in a plain
// scalar only lowers the count, so a config is never refused for a
// count above its nodes by more than its commas in plain text.
func countValues(b []byte) (line, n int) {
	var quote byte
	comment, content := false, false
	ln := 1
	bump := func() {
		n++
		if n == MaxNodes+1 {
			line = ln
		}
	}
	for i, c := range b {
		switch {
		case c == '\n':
			if content {
				bump()
			}
			ln++
			comment, content = false, false
		case comment:
		case quote != 0:
			if c == quote && (quote != '"' || i == 0 || b[i-1] != '\\') {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote, content = c, true
		case c == '#' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t' || b[i-1] == '\n'):
			comment = true
		case c == ',':
			bump()
		case c != ' ' && c != '\t' && c != '\r':
			content = true
		}
	}
	if content {
		bump()
	}
	return line, n
}
