package reporttest

import "strings"

// The injection fixture every Markdown writer is tested with (tables.md,
// scoreboard.md, REPORT.md): text a config, a manifest or a claims file
// may carry that would be markup in a viewer rendering the HTML inside
// Markdown. InjectionTitle is a config title, InjectionNotes its notes;
// InjectionTags lists the tags that must not appear raw.
const (
	InjectionTitle = "<script>alert(1)</script> & co"
	InjectionNotes = "<img src=x onerror=alert(2)>"
)

// InjectionTags are the openings of the fixture's tags.
var InjectionTags = []string{"<script", "<img"}

// RawTag returns the first of InjectionTags that md holds raw, or "".
func RawTag(md string) string {
	for _, t := range InjectionTags {
		if strings.Contains(md, t) {
			return t
		}
	}
	return ""
}
