package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// schemaValidator checks a JSON document against a JSON Schema (draft
// 2020-12) of the keywords docs/schemas/ uses: type, properties,
// required, additionalProperties, items, enum, const, pattern, minimum,
// oneOf, $ref to #/$defs/NAME, and the annotations. A schema with any
// other keyword is refused rather than half-checked: a schema that grows
// a keyword grows this validator first. The standard library is enough
// for this subset; a general validator would be a dependency of the
// module for one test.
type schemaValidator struct {
	root map[string]any
}

var schemaAnnotations = []string{"$schema", "$id", "title", "description", "$defs"}

var schemaKeywords = []string{"type", "properties", "required", "additionalProperties", "items", "enum", "const", "pattern", "minimum", "oneOf", "$ref"}

func loadSchema(t *testing.T, file string) *schemaValidator {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	v := &schemaValidator{root: root}
	if err := v.checkSchema(root, "#"); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return v
}

// checkSchema refuses keywords the validator does not know, anywhere in
// the schema.
func (v *schemaValidator) checkSchema(s map[string]any, at string) error {
	for k, x := range s {
		if !slices.Contains(schemaAnnotations, k) && !slices.Contains(schemaKeywords, k) {
			return fmt.Errorf("%s: keyword %q is not one the test's validator checks", at, k)
		}
		sub := func(x any, where string) error {
			m, ok := x.(map[string]any)
			if !ok {
				return fmt.Errorf("%s: not a schema", where)
			}
			return v.checkSchema(m, where)
		}
		switch k {
		case "properties", "$defs":
			for name, p := range x.(map[string]any) {
				if err := sub(p, at+"/"+k+"/"+name); err != nil {
					return err
				}
			}
		case "items":
			if err := sub(x, at+"/items"); err != nil {
				return err
			}
		case "additionalProperties":
			if _, ok := x.(bool); !ok {
				if err := sub(x, at+"/additionalProperties"); err != nil {
					return err
				}
			}
		case "oneOf":
			for i, o := range x.([]any) {
				if err := sub(o, fmt.Sprintf("%s/oneOf/%d", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// validate returns every place doc breaks the schema.
func (v *schemaValidator) validate(doc []byte) []string {
	var x any
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	if err := d.Decode(&x); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	v.check(v.root, x, "$", &errs)
	return errs
}

func (v *schemaValidator) check(s map[string]any, x any, at string, errs *[]string) {
	bad := func(format string, a ...any) { *errs = append(*errs, at+": "+fmt.Sprintf(format, a...)) }
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := v.root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			bad("unresolved $ref %s", ref)
			return
		}
		v.check(def, x, at, errs)
	}
	if t, ok := s["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, y := range t {
				types = append(types, y.(string))
			}
		}
		if !slices.ContainsFunc(types, func(t string) bool { return jsonType(x, t) }) {
			bad("%s is not of type %v", short(x), types)
			return
		}
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, x) {
		bad("%s is not %v", short(x), c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(c any) bool { return jsonEqual(c, x) }) {
		bad("%s is not one of %v", short(x), e)
	}
	if p, ok := s["pattern"].(string); ok {
		if str, isStr := x.(string); isStr && !regexp.MustCompile(p).MatchString(str) {
			bad("%q does not match %s", str, p)
		}
	}
	if m, ok := s["minimum"].(float64); ok {
		if n, isNum := x.(json.Number); isNum {
			if f, _ := n.Float64(); f < m {
				bad("%s < minimum %v", n, m)
			}
		}
	}
	if one, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, o := range one {
			var sub []string
			v.check(o.(map[string]any), x, at, &sub)
			if len(sub) == 0 {
				n++
			}
		}
		if n != 1 {
			bad("%s matches %d of oneOf's schemas, want exactly 1", short(x), n)
		}
	}
	if obj, ok := x.(map[string]any); ok {
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, there := obj[r.(string)]; !there {
					bad("required key %q missing", r)
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k].(map[string]any); ok {
				v.check(p, obj[k], at+"."+k, errs)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					bad("key %q is not in the schema", k)
				}
			case map[string]any:
				v.check(ap, obj[k], at+"."+k, errs)
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if it, ok := s["items"].(map[string]any); ok {
			for i, y := range arr {
				v.check(it, y, fmt.Sprintf("%s[%d]", at, i), errs)
			}
		}
	}
}

func jsonType(x any, t string) bool {
	switch t {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "null":
		return x == nil
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return false
}

// jsonEqual compares a schema's value (decoded without UseNumber) with a
// document's.
func jsonEqual(schema, doc any) bool {
	if n, ok := doc.(json.Number); ok {
		f, _ := n.Float64()
		return schema == f
	}
	return reflect.DeepEqual(schema, doc)
}

func short(x any) string {
	b, _ := json.Marshal(x)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// TestSchemaValidator: the validator the schema tests rely on fails what
// it must (a wrong type, a key missing, a key not in the schema, a value
// not in an enum, a number below its minimum, a null where an object is
// due, a pattern not matched) and refuses a schema with a keyword it
// does not check.
func TestSchemaValidator(t *testing.T) {
	v := loadSchema(t, "../../docs/schemas/compare.schema.json")
	good := `{"schema_version":1,"old":"a","new":"b","changed":true,"counts":{"claims":0,"metrics":1,"other":0,"total":1},
"configs":[{"config":"x","counts":{"claims":0,"metrics":1,"other":0,"total":1},"causes":[{"kind":"code","text":"t","cells":1}]}],
"changes":[{"config":"x","key":"c=1","what":"metric mse","old":"1","new":"2","old_value":1,"new_value":2,"causes":[{"kind":"code","text":"t"}]}],"not_compared":[]}`
	if errs := v.validate([]byte(good)); len(errs) > 0 {
		t.Fatalf("a valid document: %v", errs)
	}
	for _, bad := range []struct{ from, to string }{
		{`"changed":true`, `"changed":"yes"`},
		{`"old":"a",`, ``},
		{`"not_compared":[]`, `"not_compared":[],"extra":1`},
		{`"kind":"code","text":"t","cells":1`, `"kind":"luck","text":"t","cells":1`},
		{`"cells":1`, `"cells":0`},
		{`"schema_version":1`, `"schema_version":2`},
		{`"what":"metric mse"`, `"what":"moved"`},
		{`"old_value":1`, `"old_value":"1"`},
	} {
		doc := strings.Replace(good, bad.from, bad.to, 1)
		if doc == good {
			t.Fatalf("the edit %q is not in the document", bad.from)
		}
		if errs := v.validate([]byte(doc)); len(errs) == 0 {
			t.Errorf("%q → %q: validated", bad.from, bad.to)
		}
	}
	st := loadSchema(t, "../../docs/schemas/status.schema.json")
	nullPred := `{"schema_version":1,"configs":[],"totals":{"configs":0,"cells":0,"cached":0,"to_compute":0,"computations":0,"by_cause":{}},"prediction":null,"errors":[],"exit_status":0}`
	if errs := st.validate([]byte(nullPred)); len(errs) > 0 {
		t.Errorf("a null prediction: %v", errs)
	}
	if errs := st.validate([]byte(strings.Replace(nullPred, `"prediction":null`, `"prediction":{"workers":0}`, 1))); len(errs) == 0 {
		t.Error("a prediction without its keys validated")
	}
	var root map[string]any
	json.Unmarshal([]byte(`{"type":"object","patternProperties":{}}`), &root)
	if (&schemaValidator{root: root}).checkSchema(root, "#") == nil {
		t.Error("a schema with patternProperties was not refused")
	}
}
