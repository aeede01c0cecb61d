package paperreport

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// referencesBib is the one file the reports' bibliographies come from:
// every work a report cites is an entry of it, and bibliography.bib holds
// the entries a report's text cites, copied as the file writes them.
//
//go:embed references.bib
var referencesBib string

// bibEntry is one entry of a .bib file: its type (article, …), key, the
// fields in the order written, and the entry's text as written.
type bibEntry struct {
	Type, Key string
	Fields    map[string]string
	Order     []string
	Text      string
}

// bibRequired are the fields BibTeX's standard styles require of each
// entry type runexp's file uses ("author|editor": one of the two); an
// entry of another type is refused.
var bibRequired = map[string][]string{
	"article":       {"author", "title", "journal", "year"},
	"inproceedings": {"author", "title", "booktitle", "year"},
	"book":          {"author|editor", "title", "publisher", "year"},
	"techreport":    {"author", "title", "institution", "year"},
	"misc":          {"title", "howpublished"},
}

// parseBib reads the entries of a .bib text: @type{key, name = {value} or
// "value" or a bare number, …}. Comments (lines outside entries) are
// skipped. A malformed entry, a duplicate key and an entry lacking a field
// its type requires are errors.
func parseBib(text string) ([]bibEntry, error) {
	var out []bibEntry
	seen := map[string]bool{}
	for i := 0; i < len(text); {
		at := strings.IndexByte(text[i:], '@')
		if at < 0 {
			break
		}
		// An @ inside a comment line is not an entry.
		lineStart := strings.LastIndexByte(text[:i+at], '\n') + 1
		if strings.HasPrefix(strings.TrimSpace(text[lineStart:i+at]), "%") {
			i += at + 1
			continue
		}
		start := i + at
		e, n, err := parseBibEntry(text[start:])
		if err != nil {
			line := strings.Count(text[:start], "\n") + 1
			return nil, fmt.Errorf("references.bib:%d: %w", line, err)
		}
		if seen[e.Key] {
			return nil, fmt.Errorf("references.bib: key %q twice", e.Key)
		}
		seen[e.Key] = true
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("references.bib: %s: %w", e.Key, err)
		}
		out = append(out, e)
		i = start + n
	}
	return out, nil
}

// parseBibEntry reads one entry at the start of s and returns it with the
// number of bytes it takes.
func parseBibEntry(s string) (bibEntry, int, error) {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return bibEntry{}, 0, fmt.Errorf("entry without {")
	}
	e := bibEntry{Type: strings.ToLower(strings.TrimSpace(s[1:open])), Fields: map[string]string{}}
	comma := strings.IndexByte(s[open:], ',')
	if comma < 0 {
		return bibEntry{}, 0, fmt.Errorf("entry %s without a key", e.Type)
	}
	e.Key = strings.TrimSpace(s[open+1 : open+comma])
	i := open + comma + 1
	for {
		for i < len(s) && (unicode.IsSpace(rune(s[i])) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return bibEntry{}, 0, fmt.Errorf("%s: entry not closed", e.Key)
		}
		if s[i] == '}' {
			e.Text = s[:i+1]
			return e, i + 1, nil
		}
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return bibEntry{}, 0, fmt.Errorf("%s: field without =", e.Key)
		}
		name := strings.ToLower(strings.TrimSpace(s[i : i+eq]))
		i += eq + 1
		for i < len(s) && unicode.IsSpace(rune(s[i])) {
			i++
		}
		val, n, err := bibValue(s[i:])
		if err != nil {
			return bibEntry{}, 0, fmt.Errorf("%s: field %s: %w", e.Key, name, err)
		}
		if _, dup := e.Fields[name]; dup {
			return bibEntry{}, 0, fmt.Errorf("%s: field %s twice", e.Key, name)
		}
		e.Fields[name] = val
		e.Order = append(e.Order, name)
		i += n
	}
}

// bibValue reads a field's value: a braced group (nested braces kept), a
// quoted string or a bare word.
func bibValue(s string) (string, int, error) {
	switch {
	case strings.HasPrefix(s, "{"):
		depth := 0
		for i, r := range s {
			switch r {
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return s[1:i], i + 1, nil
				}
			}
		}
		return "", 0, fmt.Errorf("unbalanced braces")
	case strings.HasPrefix(s, `"`):
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return "", 0, fmt.Errorf("unclosed quote")
		}
		return s[1 : end+1], end + 2, nil
	}
	end := strings.IndexAny(s, ",}\n")
	if end < 0 {
		end = len(s)
	}
	return strings.TrimSpace(s[:end]), end, nil
}

// check reports a field the entry's type requires and lacks, or an
// unknown type.
func (e bibEntry) check() error {
	req, ok := bibRequired[e.Type]
	if !ok {
		return fmt.Errorf("entry type @%s is not one of those runexp's file uses", e.Type)
	}
	for _, f := range req {
		alts := strings.Split(f, "|")
		if !slices.ContainsFunc(alts, func(a string) bool { return strings.TrimSpace(e.Fields[a]) != "" }) {
			return fmt.Errorf("@%s lacks %s", e.Type, strings.ReplaceAll(f, "|", " or "))
		}
	}
	return nil
}

// sources are the items of the entry's runexp field ("estimator:mika").
func (e bibEntry) sources() []string {
	var out []string
	for _, s := range strings.Split(e.Fields["runexp"], ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// bibliography is the parsed references.bib.
type bibliography struct {
	entries []bibEntry
	byKey   map[string]int
}

// loadBibliography parses references.bib; the file is part of the
// binary, so an error is a bug the tests catch.
func loadBibliography() (*bibliography, error) {
	es, err := parseBib(referencesBib)
	if err != nil {
		return nil, err
	}
	b := &bibliography{entries: es, byKey: map[string]int{}}
	for i, e := range es {
		b.byKey[e.Key] = i
	}
	return b, nil
}

// entry returns the entry of key.
func (b *bibliography) entry(key string) (bibEntry, bool) {
	i, ok := b.byKey[key]
	if !ok {
		return bibEntry{}, false
	}
	return b.entries[i], true
}

// keysFor returns the keys of the entries that are the source of item
// ("estimator:mika"), in the file's order.
func (b *bibliography) keysFor(item string) []string {
	var keys []string
	for _, e := range b.entries {
		if slices.Contains(e.sources(), item) {
			keys = append(keys, e.Key)
		}
	}
	return keys
}

// latexText turns a field's LaTeX into the text a reader sees: the accent
// commands runexp's file uses, protective braces, \url and en dashes.
func latexText(s string) string {
	r := strings.NewReplacer(
		`{\"o}`, "ö", `{\"u}`, "ü", `{\"a}`, "ä", `{\i}`, "ı", `\"o`, "ö", `\"u`, "ü", `\"a`, "ä",
		`\url`, "", "--", "–", `\&`, "&",
	)
	s = r.Replace(s)
	s = strings.NewReplacer("{", "", "}", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// authorsText is an author field as a reference list prints it: the names
// as written ("Mika, S."), joined by commas and a final "and".
func authorsText(f string) string {
	names := strings.Split(latexText(f), " and ")
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// citeLabel is the short label of an entry in running text: the first
// author's last name, "et al." for three or more authors, and the year
// ("Mika et al. 1999", "Kwok and Tsang 2004").
func citeLabel(e bibEntry) string {
	who := e.Fields["author"]
	if who == "" {
		who = e.Fields["editor"]
	}
	last := func(n string) string {
		n = strings.TrimSpace(latexText(n))
		if l, _, ok := strings.Cut(n, ","); ok {
			return l
		}
		f := strings.Fields(n)
		if len(f) == 0 {
			return n
		}
		return f[len(f)-1]
	}
	names := strings.Split(who, " and ")
	var s string
	switch {
	case strings.HasPrefix(strings.TrimSpace(who), "{"):
		// A corporate author, kept whole by its braces.
		s = latexText(who)
	case who == "":
		s = latexText(e.Fields["title"])
		if i := strings.IndexAny(s, ":"); i > 0 {
			s = s[:i]
		}
	case len(names) == 1:
		s = last(names[0])
	case len(names) == 2:
		s = last(names[0]) + " and " + last(names[1])
	default:
		s = last(names[0]) + " et al."
	}
	if y := e.Fields["year"]; y != "" {
		s += " " + y
	}
	return s
}

// referenceText is an entry as the report's References list prints it.
func referenceText(e bibEntry) string {
	f := func(k string) string { return latexText(e.Fields[k]) }
	var parts []string
	who := e.Fields["author"]
	if who == "" {
		who = e.Fields["editor"]
	}
	head := ""
	if who != "" {
		head = authorsText(who)
	}
	if y := f("year"); y != "" {
		head += " (" + y + ")"
	}
	if head != "" {
		parts = append(parts, strings.TrimSpace(head)+".")
	}
	parts = append(parts, f("title")+".")
	var venue string
	switch e.Type {
	case "article":
		venue = f("journal")
		if v := f("volume"); v != "" {
			venue += " " + v
			if n := f("number"); n != "" {
				venue += "(" + n + ")"
			}
		}
		if p := f("pages"); p != "" {
			venue += ":" + p
		}
	case "inproceedings":
		venue = "In " + f("booktitle")
		if p := f("pages"); p != "" {
			venue += ", pp. " + p
		}
		if s := f("series"); s != "" {
			venue += ", " + s
		}
		if p := f("publisher"); p != "" {
			venue += ", " + p
		}
	case "book":
		venue = f("publisher")
		if a := f("address"); a != "" {
			venue = a + ": " + venue
		}
		if ed := f("edition"); ed != "" {
			venue = "Edition " + ed + ". " + venue
		}
	case "techreport":
		venue = f("institution")
		if n := f("number"); n != "" {
			venue += ", " + n
		}
	case "misc":
		venue = f("howpublished")
	}
	if venue != "" {
		parts = append(parts, venue+".")
	}
	if d := e.Fields["doi"]; d != "" {
		parts = append(parts, "doi:"+d+".")
	}
	return strings.Join(parts, " ")
}
