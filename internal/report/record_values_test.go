package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestRecordMethod: the method label is the "method" param as written, a
// non-string one printed, and "" for a cell without one.
func TestRecordMethod(t *testing.T) {
	for _, c := range []struct {
		params map[string]any
		want   string
	}{
		{nil, ""},
		{map[string]any{"q": 4}, ""},
		{map[string]any{MethodParam: "Mika (2x)"}, "Mika (2x)"},
		{map[string]any{MethodParam: 7}, "7"},
		{map[string]any{MethodParam: true}, "true"},
	} {
		r := Record{Params: c.params}
		if got := r.Method(); got != c.want {
			t.Errorf("Method() of %v = %q, want %q", c.params, got, c.want)
		}
	}
}

// TestFormatParam: each parameter type's CSV form — the shortest
// round-tripping float (float32 at its own precision, so 0.1f is "0.1",
// not 0.10000000149011612), integers exact to 64 bits, and anything else
// as its JSON or, when it has none, as fmt prints it.
func TestFormatParam(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, ""},
		{"a,b", "a,b"},
		{0.1, "0.1"},
		{1e21, "1e+21"},
		{float32(0.1), "0.1"},
		{-3, "-3"},
		{int64(math.MinInt64), "-9223372036854775808"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{false, "false"},
		{[]any{1, "x"}, `[1,"x"]`},
		{map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
		{make(chan int), "<chan>"}, // no JSON form: fmt's, checked by prefix below
	} {
		got := formatParam(c.v)
		if c.want == "<chan>" {
			if len(got) < 3 || got[:2] != "0x" {
				t.Errorf("formatParam(chan) = %q, want fmt's pointer form", got)
			}
			continue
		}
		if got != c.want {
			t.Errorf("formatParam(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestFromJSONNumber: integral literals that fit an int become ints,
// anything with a fraction or exponent or beyond int64 a float64 (out of
// float range: ±Inf), inside lists and objects too.
func TestFromJSONNumber(t *testing.T) {
	var v any
	d := json.NewDecoder(strings.NewReader(`{"a": 3, "b": 3.0, "c": 1e3, "d": 9223372036854775808,
		"e": [1, -2.5, {"f": 7}], "g": 1e400, "h": "3"}`))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	got := fromJSONNumber(v)
	want := map[string]any{
		"a": 3, "b": 3.0, "c": 1000.0, "d": 9223372036854775808.0,
		"e": []any{1, -2.5, map[string]any{"f": 7}}, "g": math.Inf(1), "h": "3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fromJSONNumber = %#v\nwant %#v", got, want)
	}
}

// TestRecordParamsRoundTrip: params of every documented type read back
// as the same Go values and types, so a read–write cycle is exact.
func TestRecordParamsRoundTrip(t *testing.T) {
	in := Record{Key: "k", Params: map[string]any{"s": "x", "i": -12, "f": 2.5, "big": 1e300, "b": true, "whole": 4.0}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Record
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	// 4.0 is written as 4 and read back as the int 4: documented, and
	// written identically again.
	want := map[string]any{"s": "x", "i": -12, "f": 2.5, "big": 1e300, "b": true, "whole": 4}
	if !reflect.DeepEqual(out.Params, want) {
		t.Errorf("params read back %#v, want %#v", out.Params, want)
	}
	again, err := json.Marshal(out)
	if err != nil || string(again) != string(b) {
		t.Errorf("second write %s, want %s (%v)", again, b, err)
	}
	if out.Metrics == nil || len(out.Metrics) != 0 || out.Arrays != nil {
		t.Errorf("metrics %v, arrays %v; want an empty map and nil", out.Metrics, out.Arrays)
	}
}

// TestParseJSONFloatForms: "Inf" without a sign is accepted, a quoted
// number is not, and a JSON value that is no number is an error.
func TestParseJSONFloatForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{`"Inf"`, math.Inf(1), true},
		{`"-Inf"`, math.Inf(-1), true},
		{`-0.5`, -0.5, true},
		{`"1.5"`, 0, false},
		{`true`, 0, false},
		{`"unterminated`, 0, false},
	} {
		got, err := parseJSONFloat([]byte(c.in))
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseJSONFloat(%s) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
	var s jsonFloats
	if err := json.Unmarshal([]byte(`null`), &s); err != nil || s != nil {
		t.Errorf("null arrays = %v, %v; want nil", s, err)
	}
	if err := json.Unmarshal([]byte(`{"a": 1}`), &s); err == nil {
		t.Errorf("an object as an array: no error")
	}
	if b, _ := json.Marshal(jsonFloats(nil)); string(b) != "null" {
		t.Errorf("nil arrays written %s, want null", b)
	}
}
