package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// cacheFormat changes when the layout of cached records changes.
const cacheFormat = "runexp-cell-cache/1"

// Cache stores finished cells, one JSON file per cell, named by a hash of
// everything that determines the cell's record: the cache format, the
// experiment kind and its version, the estimator and its version, the
// config's context (dataset, corruption, seed, experiment options) and the
// cell's canonical key. Failed cells are never stored, so re-running retries
// them; every file is written atomically, so a killed run leaves whole
// entries or none.
type Cache struct {
	Dir string
}

// CellHash returns the cache key of a cell.
func CellHash(c *config.Config, k *Kind, cell *Cell) string {
	h := sha256.New()
	write := func(s string) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	write(cacheFormat)
	write(k.Name)
	write(versionOr1(k.Version))
	if cell.Method != nil {
		write(cell.Method.Spec.Name)
		write(versionOr1(cell.Method.Spec.Version))
	} else {
		write("")
		write("")
	}
	write(c.Context())
	write(cell.Key)
	return hex.EncodeToString(h.Sum(nil))
}

func versionOr1(v string) string {
	if v == "" {
		return "1"
	}
	return v
}

func (c *Cache) path(hash string) string {
	return filepath.Join(c.Dir, "cells", hash[:2], hash+".json")
}

// Get returns the record cached under hash. A damaged entry counts as
// missing (and is recomputed), never as an error.
func (c *Cache) Get(hash, key string) (report.Record, bool) {
	var r report.Record
	b, err := os.ReadFile(c.path(hash))
	if err != nil {
		return r, false
	}
	if err := json.Unmarshal(b, &r); err != nil || r.Key != key || r.Status == report.StatusFailed {
		return report.Record{}, false
	}
	return r, true
}

// Put stores a finished record; failed records are not stored.
func (c *Cache) Put(hash string, r report.Record) error {
	if r.Status == report.StatusFailed {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(c.path(hash), append(b, '\n'))
}

// Delete removes an entry if present (used by --force before recomputing).
func (c *Cache) Delete(hash string) error {
	err := os.Remove(c.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
