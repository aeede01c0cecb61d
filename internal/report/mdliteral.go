package report

import (
	"strings"
	"unicode"
)

// MarkdownLiteral returns s as Markdown that every CommonMark viewer
// (GitHub's included, with its table, strikethrough and autolink
// extensions) shows as the characters of s and nothing else: no link,
// image, emphasis, code span, HTML tag, heading, list item, quote or
// table row can come out of it. It is the escape of every text that a
// config or a paper-values file supplies (a title, notes, a method's
// label, a claim's statement), inserted into Markdown the project writes;
// the project's own markup around it stays live.
//
// White space at either end is dropped (four leading spaces would make
// an indented code block) and a line break (any control character)
// becomes a space, since a new line could start a heading or a table
// row. The characters that open inline
// markup are escaped with a backslash (CommonMark §2.4: a backslash
// before ASCII punctuation shows the punctuation), "<" becomes "&lt;" so
// that no tag opens in a viewer that renders HTML, and "&" is escaped only
// where it would start an entity. The block markers that count only at
// the start of a line ("#", ">", "-", "+", "=", "1.") are escaped where s
// starts, since s may be inserted at one. The autolinks of GitHub's
// extension ("www.", "http://", "x@y.z") are broken by escaping their
// "." or ":" or "@", which no longer forms a link. What a reader of the
// raw file sees is s with a few backslashes.
//
// MarkdownLiteral(s) is escaped once: applied to its own output it
// escapes the backslashes again, so apply it where the untrusted text is
// inserted, never to Markdown already written.
func MarkdownLiteral(s string) string { return markdownLiteral(s, true) }

// MarkdownInline is MarkdownLiteral for text that never starts a line: a
// table cell, or words inside a sentence the project writes. It leaves
// the block markers ("#", "-", "+", "1.") alone, since they open nothing
// there, so a cell reads "-0.57" rather than "\-0.57".
func MarkdownInline(s string) string { return markdownLiteral(s, false) }

// MarkdownParagraphs is MarkdownLiteral for notes of several paragraphs:
// each paragraph (text between blank lines) is escaped on its own line,
// and the paragraphs are kept apart by one blank line.
func MarkdownParagraphs(s string) string {
	var ps []string
	for _, p := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n\n") {
		if p = MarkdownLiteral(p); p != "" {
			ps = append(ps, p)
		}
	}
	return strings.Join(ps, "\n\n")
}

// MarkdownUnescape reads back text written by MarkdownLiteral,
// MarkdownInline or MarkdownText for a page that shows it as text: a
// backslash before ASCII punctuation is dropped and "&lt;" is "<" again.
func MarkdownUnescape(s string) string {
	if !strings.ContainsAny(s, "\\&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++
			b.WriteByte(s[i])
		case strings.HasPrefix(s[i:], "&lt;"):
			b.WriteByte('<')
			i += len("&lt;") - 1
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isASCIIPunct(c byte) bool {
	return c < 128 && unicode.IsPunct(rune(c)) || c < 128 && unicode.IsSymbol(rune(c))
}

func markdownLiteral(s string, lineStart bool) string {
	// Control characters become spaces before the trim, so that one at
	// either end leaves no space there ("*title *" is no emphasis).
	return escapeText(strings.TrimSpace(strings.Map(noControl, s)), lineStart)
}

// MarkdownWithCode writes text the project composed whose only markup is
// its `code` spans (names of configs, claims and readings) around words
// that may come from a config: the code spans stay code spans, the rest
// is shown as written (MarkdownLiteral). A text that puts a config's
// words into such a sentence must first take the backticks out of them
// (NoCode), or they would pair with the project's.
func MarkdownWithCode(s string) string {
	s = strings.TrimSpace(strings.Map(noControl, s))
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i%2 == 1 && i < len(parts)-1 && strings.TrimSpace(p) != "" && !strings.Contains(p, "|"):
			// A pipe would split a table's cell even inside code, and
			// its escape would show outside a table: such a span is
			// written as text.
			b.WriteString("`" + strings.Map(noControl, p) + "`")
		case i%2 == 1 && i < len(parts)-1:
			b.WriteString(escapeText("`"+p+"`", false))
		case i%2 == 1:
			b.WriteString(escapeText("`"+p, false))
		default:
			b.WriteString(escapeText(p, i == 0))
		}
	}
	return b.String()
}

// NoCode returns s with its backticks as apostrophes, for a config's
// words put into a sentence that MarkdownWithCode writes.
func NoCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

func noControl(r rune) rune {
	if unicode.IsControl(r) {
		return ' '
	}
	return r
}

// escapeText escapes s as markdownLiteral does, without trimming it.
func escapeText(s string, lineStart bool) string {
	rs := []rune(strings.Map(noControl, s))
	mark, always := -1, "\\`*_|~$"
	if lineStart {
		mark = blockMark(rs)
	}
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == '<':
			b.WriteString("&lt;")
			continue
		case strings.ContainsRune(always, r), i == mark:
			b.WriteByte('\\')
		case r == '[' && i == 0 && lineStart, r == ']' && i+1 < len(rs) && strings.ContainsRune("([", rs[i+1]):
			// A bracket makes a link only as "](", "][" or a definition
			// "[x]: url" (or a task box "[x]") at the start of a line
			// (its "[" escaped there): a footnote mark "[1]" and "[0,
			// 1]:" inside a line stay as written.
			b.WriteByte('\\')
		case r == '#' && lineStart && closesHeading(rs, i):
			// "# Title #": a heading's closing sequence, dropped.
			b.WriteByte('\\')
		case r == '&' && startsEntity(rs[i+1:]):
			b.WriteByte('\\')
		case r == '.' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www"):
			b.WriteByte('\\')
		case r == ':' && i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/':
			b.WriteByte('\\')
		case r == '@' && i > 0 && i+1 < len(rs):
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// startsEntity reports whether rs (the text after an "&") reads as the
// rest of an HTML entity or numeric character reference: a name or
// "#digits" closed by ";".
func startsEntity(rs []rune) bool {
	for i, r := range rs {
		switch {
		case r == ';':
			return i > 0
		case r == '#' && i == 0, r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		default:
			return false
		}
	}
	return false
}

// blockMark returns the index of the character that makes rs, at the
// start of a line, open a block, or -1 if it opens none: a block quote
// (">"); an ATX heading ("#" to "######" then a space or the end); a
// bullet ("-", "+", "*" then a space or the end); a setext underline or a
// thematic break (a word of "=", "-", "*" or "_" only); an ordered list
// item (up to nine digits, then "." or ")" and a space or the end: "1. "
// is one, "0.061" is not).
func blockMark(rs []rune) int {
	if len(rs) == 0 {
		return -1
	}
	endsWord := func(i int) bool { return i >= len(rs) || rs[i] == ' ' || rs[i] == '\t' }
	run := 0
	for run < len(rs) && rs[run] == rs[0] {
		run++
	}
	switch rs[0] {
	case '>':
		return 0
	case '#':
		if run <= 6 && endsWord(run) {
			return 0
		}
	case '-', '+', '*':
		if endsWord(1) {
			return 0
		}
	}
	if strings.ContainsRune("=-*_", rs[0]) && endsWord(run) {
		return 0
	}
	i := 0
	for i < len(rs) && i < 9 && rs[i] >= '0' && rs[i] <= '9' {
		i++
	}
	if i > 0 && i < len(rs) && (rs[i] == '.' || rs[i] == ')') && endsWord(i+1) {
		return i
	}
	return -1
}

// MarkdownLineStart returns word as it may start a line of wrapped
// Markdown: a word that would open a block there ("-", "+", ">", "=",
// "1.", "---") gets the backslash that keeps it a word of the paragraph
// it continues. A writer that wraps text calls it for each word it puts
// first on a continuation line.
func MarkdownLineStart(word string) string {
	rs := []rune(word)
	if i := blockMark(rs); i >= 0 {
		return string(rs[:i]) + "\\" + string(rs[i:])
	}
	return word
}

// closesHeading reports whether the "#" at i starts a run of "#" that
// ends rs after a space: the closing sequence of an ATX heading.
func closesHeading(rs []rune, i int) bool {
	if i > 0 && rs[i-1] != ' ' && rs[i-1] != '\t' {
		return false
	}
	for _, r := range rs[i:] {
		if r != '#' {
			return false
		}
	}
	return true
}
