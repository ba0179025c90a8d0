package aipref

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/crawlers"
)

// ConflictKind says which two settings of the policy contradict each other.
type ConflictKind int8

// The kinds of conflict.
const (
	// BlockedUse: a category of `block` disallows crawlers that the
	// catalogue also lists for a use the policy says yes to. One token
	// governs every use it is listed for (Google-Extended decides both
	// whether Gemini trains on the site and whether Gemini answers are
	// grounded on it), so blocking it for one use withholds the others too.
	BlockedUse ConflictKind = iota + 1
	// Unsaid: `placement` writes none of the signals that carry a stated
	// preference (placement: headers, and input has no Content-Usage label).
	Unsaid
	// NothingReserved: `reserve` is set, but the policy says no to no use,
	// so there is nothing to reserve and no statement is written.
	NothingReserved
)

// String names the kind, as messages and explain write it.
func (k ConflictKind) String() string {
	switch k {
	case BlockedUse:
		return "blocked-use"
	case Unsaid:
		return "unsaid"
	case NothingReserved:
		return "nothing-reserved"
	}
	return fmt.Sprintf("ConflictKind(%d)", int(k))
}

// Conflict is two settings of the policy that contradict each other: a
// warning that names both.
type Conflict struct {
	Kind ConflictKind
	// Line is the config line of the setting the warning is about (block:,
	// placement:, reserve:), OtherLine the line of the setting it
	// contradicts (the preference); 0 when not known.
	Line, OtherLine int
	// For BlockedUse: the category that blocks (Category), the use the
	// policy says yes to (Use), and the crawlers the category blocks that
	// the catalogue lists for Use, in catalogue order. For Unsaid: Use is
	// the preference written nowhere. Pref is what the policy says to Use.
	Category, Use crawlers.Purpose
	Pref          Pref
	Crawlers      []crawlers.Crawler
}

// maxNames is how many crawler names a message lists before "and N more".
const maxNames = 5

// String is the warning, without a file:line (the caller puts the config
// file and Line before it).
func (c Conflict) String() string {
	switch c.Kind {
	case BlockedUse:
		return fmt.Sprintf("block: %s disallows %s, which the crawler catalogue also lists for %s, and %s allows %s: "+
			"the block withholds %s from %s as well",
			c.Category, names(c.Crawlers), c.Use, setting(c.Use, c.Pref, c.OtherLine), c.Use, them(c.Crawlers), c.Use)
	case Unsaid:
		return fmt.Sprintf("placement: headers writes only the Content-Usage header, which has no label for %s, so %s is written nowhere; "+
			"use placement: both or robots.txt to write it in robots.txt's Content-Signal line",
			c.Use, setting(c.Use, c.Pref, c.OtherLine))
	case NothingReserved:
		return "reserve: true, but train, search and input say no to nothing, so there is nothing to reserve and no statement is written"
	}
	return c.Kind.String()
}

// setting writes the preference for an AI purpose as the config does
// ("input: yes (line 4)").
func setting(of crawlers.Purpose, v Pref, line int) string {
	s := key(of) + ": " + v.String()
	if line > 0 {
		s += fmt.Sprintf(" (line %d)", line)
	}
	return s
}

// names lists crawlers as "Google-Extended (Google)", "A, B and C", or the
// first maxNames and "and N more".
func names(cs []crawlers.Crawler) string {
	var parts []string
	for i, c := range cs {
		if i == maxNames {
			parts = append(parts, fmt.Sprintf("%d more", len(cs)-maxNames))
			break
		}
		parts = append(parts, c.Name()+" ("+c.Operator+")")
	}
	switch len(parts) {
	case 0:
		return "no crawler"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func them(cs []crawlers.Crawler) string {
	if len(cs) == 1 {
		return "it"
	}
	return "them"
}

// Conflicts returns the settings of the policy that contradict each other,
// in this order:
//
//   - for each category of Block in the order written, and each AI use the
//     policy says yes to (training, ai-search, ai-input), the crawlers the
//     category blocks that the catalogue also lists for that use
//     (BlockedUse): `block: [training]` with `input: yes` blocks
//     Google-Extended, which Google reads for both training and grounding
//     Gemini's answers;
//   - a stated preference that the placement writes nowhere (Unsaid);
//   - Reserve with no use the policy says no to (NothingReserved).
//
// A crawler blocked by several categories is reported under the first.
func (p Policy) Conflicts(cat *crawlers.Catalogue) []Conflict {
	var out []Conflict
	seen := map[string]bool{}
	for _, category := range p.Block {
		var mine []crawlers.Crawler
		for _, c := range cat.Block(category) {
			if !seen[c.Name()] {
				seen[c.Name()] = true
				mine = append(mine, c)
			}
		}
		for _, use := range []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput} {
			if p.Pref(use) != Yes {
				continue
			}
			var hit []crawlers.Crawler
			for _, c := range mine {
				if c.Has(use) {
					hit = append(hit, c)
				}
			}
			if len(hit) > 0 {
				out = append(out, Conflict{Kind: BlockedUse, Line: p.BlockLine, OtherLine: p.line(use),
					Category: category, Use: use, Pref: Yes, Crawlers: hit})
			}
		}
	}
	if p.Placement == Headers && p.Input != Unset {
		out = append(out, Conflict{Kind: Unsaid, Line: p.PlacementLine, OtherLine: p.InputLine, Use: crawlers.AIInput, Pref: p.Input})
	}
	if p.Reserve && len(p.reserved()) == 0 {
		out = append(out, Conflict{Kind: NothingReserved, Line: p.ReserveLine})
	}
	return out
}
