package scoreboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/runexp/runexp/internal/config"

	"github.com/runexp/runexp/internal/safefs"
)

// Set is the section of a collection of configs (config.Collection):
// its members' claims counted by status under the results root, one row
// per member, so that the run of a set reads as one line.
type Set struct {
	Name, Title string
	Rows        []SetRow
	Total       SetRow
}

// SetRow counts one config's claims by status (the status claims.json
// gives, as runexp prints it). Run is false when the results root has no
// folder for the config; its claims are then counted in Claims only.
type SetRow struct {
	Config string
	Run    bool
	// Claims counts the claims the config states.
	Claims                                 int
	Pass, Fail, Inconclusive, NotEvaluated int
	// AsExpected counts the claims whose status is the one the config
	// expects (claims.json's as_expected).
	AsExpected int
}

func (r *SetRow) add(u SetRow) {
	r.Claims += u.Claims
	r.Pass += u.Pass
	r.Fail += u.Fail
	r.Inconclusive += u.Inconclusive
	r.NotEvaluated += u.NotEvaluated
	r.AsExpected += u.AsExpected
}

// NotRun counts the configs of the set without results.
func (s Set) NotRun() int {
	n := 0
	for _, r := range s.Rows {
		if !r.Run {
			n++
		}
	}
	return n
}

// AddSet appends the section of the collection name, titled title, whose
// configs are members (a nested collection's members included), reading
// each member's claims.json under the board's root.
func (b *Board) AddSet(name, title string, members []*config.Config) error {
	s := Set{Name: name, Title: title, Total: SetRow{Config: "all", Run: true}}
	for _, c := range members {
		r, err := setRow(c, filepath.Join(b.Root, c.Name))
		if err != nil {
			return err
		}
		s.Rows = append(s.Rows, r)
		s.Total.add(r)
		s.Total.Run = s.Total.Run && r.Run
	}
	b.Sets = append(b.Sets, s)
	return nil
}

// setRow counts the claims of c in its results folder dir.
func setRow(c *config.Config, dir string) (SetRow, error) {
	r := SetRow{Config: c.Name, Claims: len(c.Claims)}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return r, fmt.Errorf("scoreboard: %w", err)
		}
		return r, nil
	}
	r.Run = true
	path := filepath.Join(dir, "claims.json")
	data, err := safefs.ReadFileIn(filepath.Dir(dir), path, maxClaimsBytes) // inside the results root
	if errors.Is(err, fs.ErrNotExist) {
		// A run whose claims were all not evaluated.
		r.NotEvaluated = r.Claims
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("scoreboard: %w", err)
	}
	var recs []struct {
		ID         string `json:"id"`
		Status     string `json:"status"`
		AsExpected bool   `json:"as_expected"`
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		return r, fmt.Errorf("scoreboard: %s: %w", path, err)
	}
	stated := map[string]bool{}
	for _, cl := range c.Claims {
		stated[cl.ID] = true
	}
	seen := 0
	for _, x := range recs {
		if !stated[x.ID] {
			continue // a stale folder's claim, as the tables show it
		}
		seen++
		switch x.Status {
		case Pass:
			r.Pass++
		case Fail:
			r.Fail++
		case Inconc:
			r.Inconclusive++
		case NotEvaluatedV:
			r.NotEvaluated++
		default:
			return r, fmt.Errorf("scoreboard: %s: claim %q: status %q, want PASS, FAIL, INCONCLUSIVE or NOT-EVALUATED", path, x.ID, x.Status)
		}
		if x.AsExpected {
			r.AsExpected++
		}
	}
	// Claims the folder does not list were not evaluated.
	r.NotEvaluated += r.Claims - seen
	return r, nil
}

// Line is the set's totals on one line, for a terminal: "table1 (4
// configs): 31 claims: 20 PASS, 6 FAIL, 5 INCONCLUSIVE, 0 NOT-EVALUATED;
// 31 as expected".
func (s Set) Line() string {
	t := s.Total
	line := fmt.Sprintf("%s (%d configs): %d config checks (the rows paper claims are judged on): %d PASS, %d FAIL, %d INCONCLUSIVE, %d NOT-EVALUATED; %d as expected",
		s.Name, len(s.Rows), t.Claims, t.Pass, t.Fail, t.Inconclusive, t.NotEvaluated, t.AsExpected)
	if n := s.NotRun(); n > 0 {
		line += fmt.Sprintf("; not run: %d of the %d configs", n, len(s.Rows))
	}
	return line
}
