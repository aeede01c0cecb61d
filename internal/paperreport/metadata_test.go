package paperreport

import (
	"fmt"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// rescienceMetadata checks a metadata.yaml the way the ReScience C
// template's parser (article.py of https://github.com/ReScience/template)
// reads it: the scalar keys it indexes must exist (their value may be
// empty); authors, affiliations and contributors are lists it iterates;
// code, data, review, replication, article and journal are lists of
// one-key mappings it folds into one, with the keys it then indexes;
// dates must give received, accepted and published. It returns the
// folded mappings, for the caller's checks of their values.
func rescienceMetadata(src string) (map[string]any, map[string]map[string]any, error) {
	var doc map[string]any
	if err := config.UnmarshalYAML([]byte(src), &doc); err != nil {
		return nil, nil, err
	}
	for _, k := range []string{"title", "abstract", "keywords", "type", "domain", "language", "bibliography"} {
		if _, ok := doc[k]; !ok {
			return nil, nil, fmt.Errorf("no %s", k)
		}
		if v := doc[k]; v != nil {
			if _, ok := v.(string); !ok {
				return nil, nil, fmt.Errorf("%s: %T, want a string", k, v)
			}
		}
	}
	for _, k := range []string{"authors", "affiliations", "contributors"} {
		if _, ok := doc[k].([]any); !ok {
			return nil, nil, fmt.Errorf("%s: %T, want a list", k, doc[k])
		}
	}
	folded := map[string]map[string]any{}
	for k, keys := range map[string][]string{
		"code": {"url"}, "data": {}, "review": {}, "replication": {"cite", "bib", "url", "doi"},
		"article": {"number", "doi", "url"}, "journal": {"volume", "issue"}, "dates": {"received", "accepted", "published"},
	} {
		list, ok := doc[k].([]any)
		if !ok {
			return nil, nil, fmt.Errorf("%s: %T, want a list of one-key mappings", k, doc[k])
		}
		m := map[string]any{}
		for _, it := range list {
			one, ok := it.(map[string]any)
			if !ok {
				return nil, nil, fmt.Errorf("%s: an item %T, want a mapping", k, it)
			}
			for kk, v := range one {
				m[kk] = v
			}
		}
		for _, want := range keys {
			if _, ok := m[want]; !ok {
				return nil, nil, fmt.Errorf("%s: no %s", k, want)
			}
		}
		folded[k] = m
	}
	return doc, folded, nil
}

// TestMetadataTemplate: a report's metadata.yaml reads as the ReScience C
// template's parser reads it, with the code's language, its repository
// and revision, the replicated paper's citation and a verdict-bearing
// title; the checker refuses the faults the issue found (a mapping for
// replication, a missing code list).
func TestMetadataTemplate(t *testing.T) {
	o := sources(t, "../../baseline")
	r, err := Build(o, "huang-tian-delatorre-local-gram-preimage")
	if err != nil {
		t.Fatal(err)
	}
	doc, f, err := rescienceMetadata(r.Metadata)
	if err != nil {
		t.Fatalf("metadata.yaml as the template reads it: %v\n%s", err, r.Metadata)
	}
	if doc["language"] != "Go" || doc["type"] != "Replication" {
		t.Errorf("language %v, type %v", doc["language"], doc["type"])
	}
	if f["code"]["url"] != CodeURL || !strings.Contains(fmt.Sprint(f["replication"]["cite"]), "Local Isomorphism") {
		t.Errorf("code %v, replication %v", f["code"], f["replication"])
	}
	if rev := doc["runexp"].(map[string]any)["revision"]; rev == "" || rev == nil {
		t.Errorf("no revision: %v", rev)
	}
	if title := doc["title"].(string); !strings.HasPrefix(title, "[") || !strings.Contains(title, "Local Isomorphism") {
		t.Errorf("title %q", title)
	}
	if !strings.Contains(r.Bibliography, "@inproceedings{huang2011,") {
		t.Errorf("bibliography.bib:\n%s", r.Bibliography)
	}
	for _, bad := range []string{
		strings.Replace(r.Metadata, "replication:\n  - cite:", "replication:\n  cite:", 1),
		strings.Replace(r.Metadata, "code:\n", "codes:\n", 1),
	} {
		if _, _, err := rescienceMetadata(bad); err == nil {
			t.Errorf("the checker accepts a metadata.yaml the template cannot read:\n%s", bad)
		}
	}
}
