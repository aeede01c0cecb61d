package config

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxExcerpt is the most characters of a config's content an error
// quotes: enough to recognise a value, never the 3 MB one-line scalar or
// the linked /etc/passwd it may be.
const MaxExcerpt = 80

// Excerpt is s cut to its first MaxExcerpt characters and "…", for an
// error's %q (which escapes control characters).
func Excerpt(s string) string {
	if utf8.RuneCountInString(s) <= MaxExcerpt {
		return s
	}
	n, i := 0, 0
	for i = range s {
		if n == MaxExcerpt {
			break
		}
		n++
	}
	return s[:i] + "…"
}

// Quote quotes s for an error message as %q does (control characters
// escaped), cut to its first MaxExcerpt characters, with its length
// when it was cut.
func Quote(s string) string {
	if utf8.RuneCountInString(s) <= MaxExcerpt {
		return strconv.Quote(s)
	}
	n, i := 0, 0
	for i = range s {
		if n == MaxExcerpt {
			break
		}
		n++
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:i]), len(s))
}

// maxMessage bounds an Error's message, whatever it quotes (a YAML
// parser's message, a value quoted before Quote was used): the longest
// of runexp's own, with the expected values listed, is under 600 bytes.
const maxMessage = 1000

// cutMessage cuts msg to maxMessage bytes (at a character boundary) and
// escapes its control characters but newlines and tabs.
func cutMessage(msg string) string {
	cut := ""
	if len(msg) > maxMessage {
		i := maxMessage
		for i > 0 && !utf8.RuneStart(msg[i]) {
			i--
		}
		cut = fmt.Sprintf("… (message cut at %d of %d bytes)", i, len(msg))
		msg = msg[:i]
	}
	if strings.IndexFunc(msg, isEscaped) >= 0 {
		var b strings.Builder
		for _, r := range msg {
			if isEscaped(r) {
				q := strconv.QuoteRune(r)
				b.WriteString(q[1 : len(q)-1])
				continue
			}
			b.WriteRune(r)
		}
		msg = b.String()
	}
	return msg + cut
}

// isEscaped reports a control character an error message must not
// carry raw (a terminal would act on it).
func isEscaped(r rune) bool {
	return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0))
}
