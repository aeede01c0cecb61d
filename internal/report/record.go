package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/safefs"
)

// Record statuses.
const (
	StatusOK      = "ok"      // every row of the cell succeeded
	StatusPartial = "partial" // some rows failed; metrics cover the rest
	StatusFailed  = "failed"  // the cell produced no usable metric
)

// Record is one grid cell's result: one line of records.jsonl and one row of
// records.csv.
//
// Record implements json.Marshaler and json.Unmarshaler because
// encoding/json refuses NaN and ±Inf, which are legitimate metric values here
// (a failed pre-image, an infinite SNR). In Metrics and Arrays they are
// written as the JSON strings "NaN", "+Inf" and "-Inf"; every finite float
// is written exactly as encoding/json writes a float64 (shortest
// representation that round-trips), so the bytes are stable across runs.
//
// Params values are string, float64, int or bool. When read back, a JSON
// number without a fraction or exponent that fits in an int becomes an int,
// anything else a float64; both are written identically, so a read–write
// cycle reproduces the file byte for byte. A non-finite float64 param is an
// error when marshalling. Nil Params and Metrics maps are written as {}.
type Record struct {
	Key     string               `json:"key"` // canonical cell key (opaque string)
	Seed    uint64               `json:"seed"`
	Params  map[string]any       `json:"params"`           // values: string, float64, int, bool
	Metrics map[string]float64   `json:"metrics"`          // NaN, ±Inf allowed
	Arrays  map[string][]float64 `json:"arrays,omitempty"` // data for figures; JSONL only, not CSV
	Status  string               `json:"status"`           // StatusOK, StatusPartial or StatusFailed
	Error   string               `json:"error,omitempty"`
	// Failures counts the cell's failed rows by reason ("pre-image is
	// not finite": 3); absent when no row failed. AddFailure fills it.
	Failures map[string]int `json:"failures,omitempty"`
	// Ran holds the parameters the cell's estimator reported it ran
	// with, where it reports them (an external script's own parameters,
	// its defaults included: methods.ParamsReporter); a value reported
	// differently by the cell's batches is the list of the values.
	Ran map[string]any `json:"ran,omitempty"`
	// Loaded are the files an external estimator's process reported it
	// loaded to compute the cell (absolute paths, links resolved:
	// methods.LoadReporter). They are machine paths, so they stay out of
	// records.jsonl; the cell's cache entry keeps each one's SHA-256 and
	// recomputes the cell when one changed, and the manifest lists them.
	Loaded []string `json:"-"`
	// Code is the fingerprint of the code that computed the record: the
	// code part of its cell's cache key (the kind's, the dataset's and
	// the estimator's code, and what an external estimator runs), so
	// that the results themselves say which code made each number. The
	// runner sets it; comparisons do not read it (it is provenance, not
	// a result). JSON Lines only, not CSV.
	Code string `json:"code,omitempty"`
}

// MaxFailureReasons bounds the distinct reasons a record keeps; further
// reasons are counted under OtherFailures.
const MaxFailureReasons = 8

// MethodParam is the parameter that holds the label of a cell's method
// (its name when the config gives no label).
const MethodParam = "method"

// Method returns the label of the method the record's cell ran, or ""
// for a cell without one (a distortion cell).
func (r *Record) Method() string {
	switch v := r.Params[MethodParam].(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// OtherFailures is the reason under which AddFailure counts rows beyond
// MaxFailureReasons distinct reasons.
const OtherFailures = "other reasons"

// AddFailure counts one failed row of the record under reason: its
// first line, at most 200 bytes, so that rows failing alike share a
// count.
func (r *Record) AddFailure(reason string) {
	reason, _, _ = strings.Cut(strings.TrimSpace(reason), "\n")
	if len(reason) > 200 {
		reason = strings.ToValidUTF8(reason[:200], "") + "…"
	}
	if reason == "" {
		reason = "no reason given"
	}
	if r.Failures == nil {
		r.Failures = map[string]int{}
	}
	if _, ok := r.Failures[reason]; !ok && len(r.Failures) >= MaxFailureReasons {
		reason = OtherFailures
	}
	r.Failures[reason]++
}

// FailureCounts formats Failures as "3 × pre-image is not finite; 1 ×
// …", most frequent first (then by reason), or "" when empty.
func (r *Record) FailureCounts() string {
	reasons := make([]string, 0, len(r.Failures))
	for k := range r.Failures {
		reasons = append(reasons, k)
	}
	slices.SortFunc(reasons, func(a, b string) int {
		if d := r.Failures[b] - r.Failures[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(reasons))
	for i, k := range reasons {
		parts[i] = fmt.Sprintf("%d × %s", r.Failures[k], k)
	}
	return strings.Join(parts, "; ")
}

// recordJSON is the wire form of Record. Field order fixes the key order of
// each JSONL line.
type recordJSON struct {
	Key      string                `json:"key"`
	Seed     uint64                `json:"seed"`
	Params   map[string]any        `json:"params"`
	Metrics  map[string]jsonFloat  `json:"metrics"`
	Arrays   map[string]jsonFloats `json:"arrays,omitempty"`
	Status   string                `json:"status"`
	Error    string                `json:"error,omitempty"`
	Failures map[string]int        `json:"failures,omitempty"`
	Code     string                `json:"code,omitempty"`
}

// MarshalJSON implements json.Marshaler; see [Record] for the encoding.
func (r Record) MarshalJSON() ([]byte, error) {
	for _, name := range sortedKeys(r.Params) {
		if f, ok := r.Params[name].(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return nil, fmt.Errorf("report: record %q: param %q is %v; params must be finite", r.Key, name, f)
		}
	}
	w := recordJSON{
		Key:      r.Key,
		Seed:     r.Seed,
		Params:   r.Params,
		Metrics:  make(map[string]jsonFloat, len(r.Metrics)),
		Status:   r.Status,
		Error:    r.Error,
		Failures: r.Failures,
		Code:     r.Code,
	}
	if w.Params == nil {
		w.Params = map[string]any{}
	}
	for k, v := range r.Metrics {
		w.Metrics[k] = jsonFloat(v)
	}
	if len(r.Arrays) > 0 {
		w.Arrays = make(map[string]jsonFloats, len(r.Arrays))
		for k, v := range r.Arrays {
			w.Arrays[k] = jsonFloats(v)
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON implements json.Unmarshaler; see [Record] for the encoding.
func (r *Record) UnmarshalJSON(data []byte) error {
	var w recordJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return err
	}
	*r = Record{
		Key:      w.Key,
		Seed:     w.Seed,
		Status:   w.Status,
		Error:    w.Error,
		Failures: w.Failures,
		Code:     w.Code,
	}
	if w.Params != nil {
		r.Params = make(map[string]any, len(w.Params))
		for k, v := range w.Params {
			r.Params[k] = fromJSONNumber(v)
		}
	}
	if w.Metrics != nil {
		r.Metrics = make(map[string]float64, len(w.Metrics))
		for k, v := range w.Metrics {
			r.Metrics[k] = float64(v)
		}
	}
	if w.Arrays != nil {
		r.Arrays = make(map[string][]float64, len(w.Arrays))
		for k, v := range w.Arrays {
			r.Arrays[k] = []float64(v)
		}
	}
	return nil
}

// fromJSONNumber converts the json.Numbers that UseNumber leaves in v into
// int (integral literals that fit) or float64, recursively.
func fromJSONNumber(v any) any {
	switch v := v.(type) {
	case json.Number:
		s := string(v)
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, strconv.IntSize); err == nil {
				return int(i)
			}
		}
		f, _ := strconv.ParseFloat(s, 64) // Valid JSON number, so only range errors: ±Inf is the best value.
		return f
	case []any:
		for i := range v {
			v[i] = fromJSONNumber(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = fromJSONNumber(v[k])
		}
	}
	return v
}

// jsonFloat is a float64 whose JSON form allows non-finite values.
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	return appendJSONFloat(nil, float64(f)), nil
}

func (f *jsonFloat) UnmarshalJSON(data []byte) error {
	v, err := parseJSONFloat(data)
	*f = jsonFloat(v)
	return err
}

// jsonFloats is a []float64 whose JSON form allows non-finite values. It
// encodes the whole slice in one call: arrays may hold thousands of values.
type jsonFloats []float64

func (s jsonFloats) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(s)*20)
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONFloat(b, v)
	}
	return append(b, ']'), nil
}

func (s *jsonFloats) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*s = nil
		return nil
	}
	var raw []jsonFloat
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	out := make([]float64, len(raw))
	for i, v := range raw {
		out[i] = float64(v)
	}
	*s = out
	return nil
}

// appendJSONFloat appends f as encoding/json would encode a float64, except
// that NaN, +Inf and -Inf become the strings "NaN", "+Inf" and "-Inf".
func appendJSONFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"+Inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Inf"`...)
	}
	// This mirrors encoding/json's floatEncoder (ES6 number formatting), so
	// Metrics and Params floats look alike and match any other Go JSON.
	fmtc := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmtc = 'e'
	}
	b = strconv.AppendFloat(b, f, fmtc, -1, 64)
	if fmtc == 'e' {
		// Clean up e-09 to e-9.
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// parseJSONFloat reads a JSON number or one of the strings written by
// appendJSONFloat ("Inf" without a sign is accepted too).
func parseJSONFloat(data []byte) (float64, error) {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return 0, err
		}
		switch s {
		case "NaN":
			return math.NaN(), nil
		case "+Inf", "Inf":
			return math.Inf(1), nil
		case "-Inf":
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("report: invalid float %q (want a number, \"NaN\", \"+Inf\" or \"-Inf\")", s)
	}
	var f float64
	if err := json.Unmarshal(data, &f); err != nil {
		return 0, err
	}
	return f, nil
}

// MarshalJSONL returns recs as JSON Lines: one compact JSON object per
// record, each followed by a newline.
func MarshalJSONL(recs []Record) ([]byte, error) {
	var buf bytes.Buffer
	for i := range recs {
		b, err := json.Marshal(recs[i])
		if err != nil {
			return nil, fmt.Errorf("report: record %d (%q): %w", i, recs[i].Key, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

// WriteJSONL writes recs to path as JSON Lines (see [MarshalJSONL]),
// atomically. Records are written in the order given; callers that want a
// file independent of completion order sort by Key first.
func WriteJSONL(path string, recs []Record) error {
	return writeRecords(path, recs, MarshalJSONL)
}

// writeRecords writes recs to path atomically in the format marshal
// gives them.
func writeRecords(path string, recs []Record, marshal func([]Record) ([]byte, error)) error {
	b, err := marshal(recs)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}

// Bounds on the result files runexp reads back (records of a run, a
// shard or a baseline; claims.json; manifest.json), so that a damaged or
// hostile file fails with its name instead of exhausting memory: the
// largest records.jsonl of the suite is a few megabytes and its longest
// line (a cell's figure arrays) well under one.
const (
	// MaxRecordsBytes bounds a records file, checked from its size
	// before anything is read.
	MaxRecordsBytes = 1 << 30
	// MaxRecordLine bounds one record's line.
	MaxRecordLine = 64 << 20
	// MaxRecords bounds the lines of a records file, blank ones counted.
	MaxRecords = 1 << 22
	// MaxJSONBytes bounds claims.json, manifest.json and the like.
	MaxJSONBytes = 64 << 20
)

// ReadJSONL reads records written by [WriteJSONL]. Blank lines are skipped;
// a malformed line is an error naming path and the 1-based line number. A
// file that is not a regular file (a link to /dev/zero, a FIFO) is refused
// by name, and one beyond MaxRecordsBytes from its size; a line beyond
// MaxRecordLine is refused without reading past the bound.
func ReadJSONL(path string) ([]Record, error) {
	var recs []Record
	err := EachRecord(path, func(_ int, r *Record) error {
		recs = append(recs, *r)
		return nil
	})
	return recs, err
}

// EachRecord calls fn with each record of the records file at path, in
// file order, with its 1-based line number, holding one record at a
// time: ReadJSONL's bounds and refusals without keeping the records. fn's
// error stops the reading and is returned as it is.
func EachRecord(path string, fn func(line int, r *Record) error) error {
	f, fi, err := safefs.Open(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	if fi.Size() > MaxRecordsBytes {
		return fmt.Errorf("report: %w", &safefs.TooLargeError{Path: path, What: "the records file", Size: fi.Size(), Limit: MaxRecordsBytes})
	}
	var fnErr error
	err = safefs.Lines(safefs.Limit(f, path, MaxRecordsBytes), path, MaxRecordLine, MaxRecords, func(line int, b []byte) error {
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			return nil
		}
		var rec Record
		if uerr := json.Unmarshal(t, &rec); uerr != nil {
			return fmt.Errorf("%s:%d: %w", path, line, uerr)
		}
		if fnErr = fn(line, &rec); fnErr != nil {
			return fnErr
		}
		return nil
	})
	if err != nil && err == fnErr {
		return err
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// MarshalCSV returns recs as CSV. The header is key, status, error, then
// "param.<name>" for the sorted union of parameter names, then
// "metric.<name>" for the sorted union of metric names. Missing values are
// empty; floats use strconv's 'g' format with the shortest precision, with
// NaN, +Inf and -Inf written as such. Arrays and Seed are not written: they
// live in the JSONL file.
func MarshalCSV(recs []Record) ([]byte, error) {
	var params, metrics []string
	seenP, seenM := map[string]bool{}, map[string]bool{}
	for _, r := range recs {
		for k := range r.Params {
			if !seenP[k] {
				seenP[k] = true
				params = append(params, k)
			}
		}
		for k := range r.Metrics {
			if !seenM[k] {
				seenM[k] = true
				metrics = append(metrics, k)
			}
		}
	}
	slices.Sort(params)
	slices.Sort(metrics)

	// Failed rows' reasons get a column only when some record has them,
	// so files without failures keep their layout.
	failures := slices.ContainsFunc(recs, func(r Record) bool { return len(r.Failures) > 0 })

	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	row := make([]string, 0, 4+len(params)+len(metrics))
	row = append(row, "key", "status", "error")
	if failures {
		row = append(row, "failures")
	}
	for _, p := range params {
		row = append(row, "param."+p)
	}
	for _, m := range metrics {
		row = append(row, "metric."+m)
	}
	if err := w.Write(row); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	for _, r := range recs {
		row = append(row[:0], r.Key, r.Status, r.Error)
		if failures {
			row = append(row, r.FailureCounts())
		}
		for _, p := range params {
			v, ok := r.Params[p]
			if !ok {
				row = append(row, "")
				continue
			}
			row = append(row, formatParam(v))
		}
		for _, m := range metrics {
			v, ok := r.Metrics[m]
			if !ok {
				row = append(row, "")
				continue
			}
			row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
		}
		if err := w.Write(row); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return buf.Bytes(), nil
}

// WriteCSV writes recs to path as CSV (see [MarshalCSV]), atomically.
func WriteCSV(path string, recs []Record) error {
	return writeRecords(path, recs, MarshalCSV)
}

// formatParam formats a parameter value for CSV.
func formatParam(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case bool:
		return strconv.FormatBool(v)
	}
	// Anything else (a list, say) is written as its JSON, which is at least
	// deterministic.
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
