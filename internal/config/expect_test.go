package config_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

const expectHead = "title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: c1\n    check: {type: value, metric: m, op: \"<\", value: 1}\n"

func TestClaimExpect(t *testing.T) {
	c, err := config.Parse("e.yaml", []byte(expectHead+"    expect: fail\n    because: \"our APE 8.7 vs the paper's 23-27 (issue 7)\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if cl := c.Claims[0]; cl.Expect != "fail" || !strings.Contains(cl.Because, "issue 7") {
		t.Errorf("claim parsed as expect %q because %q", cl.Expect, cl.Because)
	}
	c, err = config.Parse("e.yaml", []byte(expectHead+"    expect: pass\n"))
	if err != nil || c.Claims[0].Expect != "" {
		t.Errorf("expect: pass: %v, %q", err, c.Claims[0].Expect)
	}
	for _, tc := range []struct{ add, want string }{
		{"    expect: fail\n", "e.yaml:8: claims[0]: expect: fail needs because:"},
		{"    expect: inconclusive\n    because: \"  \"\n", "e.yaml:8: claims[0]: expect: inconclusive needs because:"},
		{"    expect: maybe\n    because: x\n", `e.yaml:8: claims[0].expect: "maybe": want pass, fail or inconclusive`},
		{"    because: x\n", "e.yaml:8: claims[0]: because: explains an expectation"},
	} {
		_, err := config.Parse("e.yaml", []byte(expectHead+tc.add))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.add, err, tc.want)
		}
	}
}
