package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/suggest"
)

// Collection is a config that names other configs, so that one command
// runs a set (every paper's Table 1, a paper's figures, the nightly
// configs). Its members are configs or collections in the same folder;
// package suite expands it.
type Collection struct {
	// File is the path it was read from; Name its base name without
	// extension.
	File, Name string
	// SHA256 is the hex digest of the file's bytes.
	SHA256 string
	Title  string
	Notes  string
	// Members are as listed, in order.
	Members []Member
}

// Member is one entry of a collection's list.
type Member struct {
	// Name is the member's name (its file name without .yaml); File is
	// its path, beside the collection.
	Name, File string
	// Line is the entry's line in the collection's file.
	Line int
}

// Errorf returns an error placed at line of the collection's file.
func (c *Collection) Errorf(line int, format string, args ...any) error {
	return &Error{File: c.File, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// Open reads the file at path, which is either an experiment config or a
// collection: exactly one of the results is not nil when err is nil.
func Open(path string) (*Config, *Collection, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	return ParseAny(path, b)
}

// LoadCollection reads the collection at path; an experiment config is
// an error.
func LoadCollection(path string) (*Collection, error) {
	c, col, err := Open(path)
	if err != nil {
		return nil, err
	}
	if c != nil {
		return nil, &Error{File: path, Line: 1, Msg: "an experiment config, not a collection (collection: a list of configs)"}
	}
	return col, nil
}

// IsCollection reports whether the file at path reads as a collection:
// a YAML mapping with the key collection. It is false for a file that
// cannot be read or parsed; Open then says why.
func IsCollection(path string) bool {
	b, err := readFile(path)
	if err != nil {
		return false
	}
	root, _, err := decodeOne(path, b)
	return err == nil && collectionKey(root) != nil
}

// ParseAny parses b as an experiment config or, when its top level has
// the key collection, as a collection.
func ParseAny(file string, b []byte) (*Config, *Collection, error) {
	root, _, err := decodeOne(file, b)
	if err != nil {
		return nil, nil, err
	}
	if collectionKey(root) == nil {
		c, err := Parse(file, b)
		return c, nil, err
	}
	col, err := parseCollection(file, b, root)
	return nil, col, err
}

// readFile reads a config file, refusing one beyond MaxFileBytes and
// anything but a regular file: a named pipe among the configs is refused
// before it is opened, never waited on.
func readFile(path string) ([]byte, error) {
	b, err := safefs.ReadFile(path, MaxFileBytes)
	var big *safefs.TooLargeError
	if errors.As(err, &big) {
		return nil, &Error{File: path, Msg: fmt.Sprintf("larger than %d bytes; a config is a page of YAML", MaxFileBytes)}
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return b, nil
}

// decodeOne decodes the one YAML document of b and returns its root node.
func decodeOne(file string, b []byte) (*yaml.Node, *yaml.Node, error) {
	if line, n := countValues(b); n > MaxNodes {
		return nil, nil, &Error{File: file, Line: line, Msg: fmt.Sprintf("more than %d values by here (%d in the file: a list this long?); a config holds at most %d YAML nodes, refused before it is parsed", MaxNodes, n, MaxNodes)}
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			// yaml.v3 reports a file without a document (empty, or
			// comments only) as io.EOF.
			return nil, nil, &Error{File: file, Msg: "empty config"}
		}
		return nil, nil, yamlError(file, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil, &Error{File: file, Msg: "empty config"}
	}
	// A second document would be silently ignored: say so instead.
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, nil, yamlError(file, err)
		}
		return nil, nil, &Error{File: file, Line: max(next.Line, 1), Msg: "a second YAML document (after ---): a config is one document; split it into two files"}
	}
	return doc.Content[0], &doc, nil
}

// collectionKey returns the key node collection of a top-level mapping,
// or nil.
func collectionKey(root *yaml.Node) *yaml.Node {
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	for k := range entries(root) {
		if k.Kind == yaml.ScalarNode && k.Value == "collection" {
			return k
		}
	}
	return nil
}

// parseCollection reads a collection: title (required), notes and
// collection, a non-empty list of names of configs beside the file,
// each listed once and each a file that exists.
func parseCollection(file string, b []byte, root *yaml.Node) (*Collection, error) {
	w := &walker{file: file}
	sum := sha256.Sum256(b)
	col := &Collection{
		File:   file,
		Name:   strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)),
		SHA256: hex.EncodeToString(sum[:]),
	}
	f, keys, err := w.fields(root, "collection file", "title", "notes", "collection")
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Msg += " (a collection lists configs; their settings stay in their own files)"
		}
		return nil, err
	}
	if f["title"] == nil {
		return nil, w.errf(root, "collection file: missing required key \"title\" (what the set regenerates)")
	}
	if col.Title, err = w.str(f["title"], "title"); err != nil {
		return nil, err
	}
	if n := f["notes"]; n != nil {
		if col.Notes, err = w.str(n, "notes"); err != nil {
			return nil, err
		}
	}
	list := f["collection"]
	if list.Kind != yaml.SequenceNode || len(list.Content) == 0 {
		return nil, w.errf(keys["collection"], "collection: want a list of config names beside this file (- huang-table1), got %s", describe(list))
	}
	seen := map[string]int{}
	for i, item := range list.Content {
		what := fmt.Sprintf("collection[%d]", i)
		s, err := w.str(item, what)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(s, ".yaml")
		if err := CheckFileName(name); err != nil {
			return nil, w.errf(item, "%s: %v; want the name of a config beside this file (e.g. huang-table1)", what, err)
		}
		if name == col.Name {
			return nil, w.errf(item, "%s: %s names this collection itself", what, name)
		}
		if prev, dup := seen[name]; dup {
			return nil, w.errf(item, "%s: %s is already listed at line %d", what, name, prev)
		}
		seen[name] = item.Line
		m := Member{Name: name, File: filepath.Join(filepath.Dir(file), name+".yaml"), Line: item.Line}
		if fi, err := os.Stat(m.File); err != nil || !fi.Mode().IsRegular() {
			return nil, w.errf(item, "%s: no config %s beside this collection (%s)%s", what, name, m.File, memberHint(filepath.Dir(file), name))
		}
		col.Members = append(col.Members, m)
	}
	return col, nil
}

// memberHint suggests, for a member that does not exist, the names of the
// configs in dir that come closest.
func memberHint(dir, name string) string {
	var names []string
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
	}
	return suggest.Hint(name, names, 5)
}
