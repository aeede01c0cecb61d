package scoreboard

import (
	"fmt"
	"strings"
)

// Marks a paper's headline can take (Headline).
const (
	MarkRe        = "[Re]"
	MarkNotRe     = "[¬Re]"
	MarkUndecided = "[Re?]"
	MarkNotRun    = "[not run]"
)

// HeadlineRule states how Headline decides, for the first screen of a
// report and of the scoreboard.
const HeadlineRule = "Counted under the paper's assignment (one reading per listed ambiguity): [Re] when every claim of the " +
	"paper that a config tests is reproduced under it; [¬Re] when at least one claim fails as the paper states it (the stated " +
	"protocol, the assignment and every reading of the ambiguities bearing on it fail, on the paper's own data); [Re?] otherwise: no claim " +
	"fails as the paper states it, but some are not reproduced here for reasons of ours (our test, our data), undetermined " +
	"or inconclusive, so the reproduction is not decided; [not run] when no claim was run. Claims not testable here do not count."

// Headline is paper p's mark by HeadlineRule and the counts behind it.
func Headline(p Paper) (mark, why string) {
	var n, reproduced, ran, paper int
	var open []string
	for _, a := range p.Accounts {
		switch a.Category {
		case NotTestable:
			continue
		case AsStated, OtherReading:
			reproduced++
		}
		if a.Status() == "not accounted for" {
			continue
		}
		n++
		if a.Category != NotRun {
			ran++
		}
		if a.Attribution == "paper" && a.Category == NotReproduced {
			paper++
		}
		if a.Category != AsStated && a.Category != OtherReading {
			open = append(open, a.Claim.ID+" "+accountCategoryText(a))
		}
	}
	counts := fmt.Sprintf("%d of %d paper claims reproduced under the assignment", reproduced, n)
	if stated := p.StatedPass; stated != reproduced {
		counts += fmt.Sprintf(" (%d under the stated protocol)", stated)
	}
	switch {
	case ran == 0:
		return MarkNotRun, "no claim was run"
	case paper > 0:
		verb := "fail"
		if paper == 1 {
			verb = "fails"
		}
		return MarkNotRe, fmt.Sprintf("%s; %d %s as the paper states it (%s)", counts, paper, verb, strings.Join(open, "; "))
	case reproduced == n:
		return MarkRe, counts
	}
	return MarkUndecided, fmt.Sprintf("%s; none fails as the paper states it; not decided: %s", counts, strings.Join(open, "; "))
}

// JournalRule states how JournalMark decides the journal's mark.
const JournalRule = "The journal has two marks, [Re] and [¬Re]: runexp's [Re] and [¬Re] are kept; a [Re?] is [Re] when at least " +
	"half of the paper's tested claims reproduce (as stated or under the assignment) and [¬Re] when fewer do (claims not testable " +
	"here left out)."

// JournalMark is paper p's mark in the journal's two (JournalRule), with
// the count behind it when it differs from Headline's.
func JournalMark(p Paper) (mark, why string) {
	mark, _ = Headline(p)
	switch mark {
	case MarkRe, MarkNotRe, MarkNotRun:
		return mark, ""
	}
	tested, reproduced := 0, 0
	for _, a := range p.Accounts {
		if a.Category == NotTestable || a.Status() == "not accounted for" {
			continue
		}
		tested++
		if a.Category == AsStated || a.Category == OtherReading {
			reproduced++
		}
	}
	why = fmt.Sprintf("%d of %d tested claims reproduced", reproduced, tested)
	if 2*reproduced >= tested {
		return MarkRe, why + ", at least half"
	}
	return MarkNotRe, why + ", fewer than half"
}

// OutcomeText is a paper claim's outcome as the pages show it: its
// category with the readings that reproduce it or whose failure it is.
func OutcomeText(a Account) string { return accountCategoryText(a) }

// AttributionName names an attribution kind as the pages do ("fails as
// the paper states it", "fails here: our test", "undetermined").
func AttributionName(kind string) string { return attrNames[attrIndex(kind)] }

// Paper returns the board's paper id, and whether it has one.
func (b *Board) Paper(id string) (Paper, bool) {
	for _, p := range b.Papers {
		if p.ID == id {
			return p, true
		}
	}
	return Paper{}, false
}
