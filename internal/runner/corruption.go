package runner

import (
	"sync"

	"github.com/runexp/runexp/internal/config"
)

// noCorruption holds the kinds that corrupt nothing, with why: a
// corruption section in their configs would be ignored without a word,
// and records equal to an uncorrupted run's would read as a corrupted
// one's. It lives beside Kind, as reportOnly does, so that declaring it
// changes no other kind's code fingerprint.
var noCorruption sync.Map

// RegisterNoCorruption declares that kind corrupts no input: validate
// refuses a config of it with a corruption section, at the section's
// line, saying why; a section of "type: none" alone, which says what the
// kind does, passes.
func RegisterNoCorruption(kind, why string) { noCorruption.Store(kind, why) }

// checkCorruption refuses a corruption section the kind of c ignores.
func checkCorruption(c *config.Config, k *Kind) error {
	why, ok := noCorruption.Load(k.Name)
	line := c.Corruption.Options.Line("")
	if !ok || line == 0 {
		return nil
	}
	if c.Corruption.Type == "none" && len(c.Corruption.Options.Values) == 1 {
		// "type: none" alone says what the kind does: nothing ignored.
		return nil
	}
	return c.Errorf(line, "corruption: %s corrupts nothing (%s), so this section would be ignored; remove it, or use a kind that de-noises corrupted inputs (denoise, lgdenoise, robust)", k.Name, why)
}
