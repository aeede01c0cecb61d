package report

import (
	"net/url"
	"path"
	"strings"
	"testing"
)

// TestRelURL checks the links of the HTML pages: each segment escaped so
// that '#', '?', '%', ' ' and '/' in a name stay part of it, and "./" put
// before a first segment holding a colon, which a browser would otherwise
// read as a scheme ("a:b" as the URL scheme "a"). Every link must parse
// back, without a scheme, to the names joined.
func TestRelURL(t *testing.T) {
	for _, tc := range []struct {
		segs []string
		want string
	}{
		{[]string{"fig-a"}, "fig-a"},
		{[]string{"fig-a", "records.csv"}, "fig-a/records.csv"},
		{[]string{"mika:c=2"}, "./mika:c=2"},
		{[]string{"run", "mika:c=2.png"}, "run/mika:c=2.png"},
		{[]string{"50%#1?x"}, "50%25%231%3Fx"},
		{[]string{"two words"}, "two%20words"},
		{[]string{"a/b"}, "a%2Fb"},
		{[]string{"http://example.com"}, "./http:%2F%2Fexample.com"},
	} {
		got := relURL(tc.segs...)
		if got != tc.want {
			t.Errorf("relURL(%q) = %q, want %q", tc.segs, got, tc.want)
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Errorf("relURL(%q) = %q does not parse: %v", tc.segs, got, err)
			continue
		}
		if u.Scheme != "" || u.Host != "" || u.Fragment != "" || u.RawQuery != "" {
			t.Errorf("relURL(%q) = %q parses as scheme %q, host %q, query %q, fragment %q; want a path only",
				tc.segs, got, u.Scheme, u.Host, u.RawQuery, u.Fragment)
		}
		// Segments are compared escaped: a '/' inside a name must not
		// become a separator.
		var raw []string
		for _, s := range strings.Split(strings.TrimPrefix(u.EscapedPath(), "./"), "/") {
			s, err := url.PathUnescape(s)
			if err != nil {
				t.Fatal(err)
			}
			raw = append(raw, s)
		}
		if path.Join(raw...) != path.Join(tc.segs...) || len(raw) != len(tc.segs) {
			t.Errorf("relURL(%q) = %q reads back as %q", tc.segs, got, raw)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 workers"}, {1, "1 worker"}, {2, "2 workers"}, {12, "12 workers"}} {
		if got := plural(tc.n, "worker"); got != tc.want {
			t.Errorf("plural(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestIsDelimiterRow checks the GFM delimiter rows the page's Markdown
// tables are told apart by: dashes with optional colons in every cell,
// between pipes.
func TestIsDelimiterRow(t *testing.T) {
	for _, tc := range []struct {
		row  string
		want bool
	}{
		{"|:---|--:|:-:|", true},
		{"| --- | --- |", true},
		{"  |---|  ", true},
		{"|-|", true},
		{"---|---", false},     // no leading pipe: not a row the writer makes
		{"| a | b |", false},   // a header
		{"| --- | 1 |", false}, // a number
		{"|:|", false},         // a colon without dashes
		{"|::|", false},
		{"| --- | |", false}, // an empty cell
		{"|", false},
		{"", false},
		{"| -x- |", false},
	} {
		if got := isDelimiterRow(tc.row); got != tc.want {
			t.Errorf("isDelimiterRow(%q) = %v, want %v", tc.row, got, tc.want)
		}
	}
}
