package datasets

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/safefs"
)

// ReadCSVMatrix reads a matrix from a comma-separated file with one sample
// per row.
//
// A first line none of whose fields parses as a number is a header and is
// skipped; a first line with some numeric fields is data, so a typo on line 1
// is reported rather than silently dropped as a header. Blank lines are
// ignored and fields may be surrounded by spaces. A row whose length differs
// from the first data row, a field that is not a number, and NaN or ±Inf are
// errors naming the file and line.
func ReadCSVMatrix(path string) (*mat.Dense, error) {
	f, _, err := safefs.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("datasets: %s not found", path)
		}
		return nil, fmt.Errorf("datasets: %v", err)
	}
	defer f.Close()

	cr := csv.NewReader(bufio.NewReader(f))
	// Ragged rows are checked below so the error can say which lengths
	// disagree.
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true

	var (
		data  []float64
		cols  int
		rows  int
		first = true
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// csv.ParseError already carries the line and column.
			return nil, fmt.Errorf("datasets: %s: %v", path, err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			// encoding/csv skips empty lines but not lines of spaces.
			continue
		}
		line, _ := cr.FieldPos(0)
		if first {
			first = false
			if isHeader(rec) {
				continue
			}
		}
		if rows == 0 {
			cols = len(rec)
		} else if len(rec) != cols {
			return nil, fmt.Errorf("datasets: %s:%d: %d fields, but the first data row has %d", path, line, len(rec), cols)
		}
		for j, s := range rec {
			s = strings.TrimSpace(s)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("datasets: %s:%d: field %d: %q is not a number", path, line, j+1, s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("datasets: %s:%d: field %d: %q is not finite; mark missing values another way", path, line, j+1, s)
			}
			data = append(data, v)
		}
		rows++
	}
	if rows == 0 {
		return nil, fmt.Errorf("datasets: %s: no data rows", path)
	}
	return mat.NewDense(rows, cols, data), nil
}

// isHeader reports whether no field of rec parses as a number.
func isHeader(rec []string) bool {
	for _, s := range rec {
		if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
			return false
		}
	}
	return true
}

// WriteCSVMatrix writes m to path as comma-separated rows, no header, each
// value formatted with strconv.FormatFloat(v, 'g', -1, 64): the shortest
// decimal that parses back to the same float64, so ReadCSVMatrix recovers m
// exactly.
//
// The matrix is written to a temporary file in the same directory and
// renamed over path, so a reader (or a resumed run) never sees a partial file.
// A NaN or ±Inf entry is an error and leaves path untouched, since
// ReadCSVMatrix would refuse the file.
func WriteCSVMatrix(path string, m mat.Matrix) (err error) {
	rows, cols := m.Dims()
	for i := range rows {
		for j := range cols {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("datasets: writing %s: entry (%d, %d) is %v; only finite values can be written", path, i, j, v)
			}
		}
	}

	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	w := bufio.NewWriter(tmp)
	buf := make([]byte, 0, 32)
	for i := range rows {
		for j := range cols {
			if j > 0 {
				w.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], m.At(i, j), 'g', -1, 64)
			w.Write(buf)
		}
		w.WriteByte('\n')
	}
	// bufio.Writer remembers the first write error, so checking Flush
	// covers every write above.
	if err := w.Flush(); err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	// CreateTemp makes the file private (0600); give it the usual mode of
	// a file the user would create.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("datasets: writing %s: %v", path, err)
	}
	return nil
}
