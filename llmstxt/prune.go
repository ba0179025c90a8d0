package llmstxt

import (
	"fmt"
	"sort"

	"github.com/yuin/goldmark/ast"
)

// Action is what Prune did to remove a link.
type Action int8

// The actions.
const (
	// RemovedItem: the list item holding the link was removed, its nested
	// items and the blank line that separated it included. An item is
	// removed when every link in it is dropped.
	RemovedItem Action = iota + 1
	// Unlinked: the link's markup was removed and its text kept, in place
	// ("see [the roadmap](/private/) first" becomes "see the roadmap
	// first"): a link in prose, a heading, or a list item that also holds a
	// link that stays.
	Unlinked
	// Removed: the link's bytes were removed: an autolink or bare URL in
	// prose (its text is the URL), or a link reference definition (its
	// lines).
	Removed
)

func (a Action) String() string {
	switch a {
	case RemovedItem:
		return "item removed"
	case Unlinked:
		return "unlinked"
	case Removed:
		return "removed"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Pruned is a link Prune removed.
type Pruned struct {
	Link   // as it was in the source (a later round's source, see Prune)
	Reason string
	Action Action
}

// maxRounds bounds the rounds of Prune: a round only deletes bytes, and a
// second one is needed only where unlinking made new links.
const maxRounds = 8

// ErrRounds is Prune's error when links to drop remain after maxRounds.
var ErrRounds = fmt.Errorf("llms.txt: links to remove remain after %d rounds of pruning", maxRounds)

// Prune removes from an llms.txt every link whose URL drop says to drop,
// and keeps every other byte: the output is the input with some byte
// ranges deleted, nothing added. drop is called once per distinct URL (as
// Link.URL gives it: relative URLs as written), and its reason is kept
// with each link it drops.
//
// How a dropped link goes (Action):
//
//   - a list item whose links are all dropped is removed whole: its lines,
//     its nested items, and the blank line that separated it from its
//     neighbours (the one after it when an item follows, else the one
//     before it), so that the list reads as if the item had never been
//     written;
//   - any other link is unlinked: its markup goes and its text stays, so
//     that prose still reads ("read [the roadmap](/p/) first" becomes
//     "read the roadmap first"): the URL is what must not be offered, and
//     removing the author's words would surprise more than keeping them;
//   - an autolink or bare URL outside a removed item is removed with a
//     space before it (its text is the URL);
//   - a link reference definition whose URL is dropped is removed, its
//     lines with it: it renders as nothing, but its URL is in the file for
//     whoever reads it raw. The references to it have the same URL, so
//     they go too, and none is left to render as "[text][label]".
//
// Unlinking can make new links (the text "[a]" of a dropped link becomes a
// shortcut reference where a definition of "a" exists), so Prune parses
// its output again and prunes again, at most maxRounds times (ErrRounds);
// a later round's Pruned links carry that round's offsets. With nothing
// dropped, the output is the input. A link Parse cannot place is an error
// (*LocateError), and nothing is pruned.
func Prune(src []byte, drop func(url string) (bool, string)) (out []byte, pruned []Pruned, err error) {
	type verdict struct {
		drop   bool
		reason string
	}
	cache := map[string]verdict{}
	decide := func(url string) verdict {
		v, ok := cache[url]
		if !ok {
			v.drop, v.reason = drop(url)
			cache[url] = v
		}
		return v
	}
	out = src
	for round := 0; ; round++ {
		d, err := parse(out)
		if err != nil {
			return nil, nil, err
		}
		dropped := make([]bool, len(d.file.Links))
		reasons := make([]string, len(d.file.Links))
		any := false
		for i, l := range d.file.Links {
			v := decide(l.URL)
			dropped[i], reasons[i] = v.drop, v.reason
			any = any || v.drop
		}
		if !any {
			if round == 0 {
				out = append([]byte(nil), src...)
			}
			return out, pruned, nil
		}
		if round == maxRounds {
			return nil, nil, ErrRounds
		}
		cuts, acts := d.cuts(out, dropped)
		for i, l := range d.file.Links {
			if dropped[i] {
				pruned = append(pruned, Pruned{Link: l, Reason: reasons[i], Action: acts[i]})
			}
		}
		out = cut(out, cuts)
	}
}

// cuts returns the byte ranges to delete from src so that the dropped links
// go, and the action taken for each link.
func (d *doc) cuts(src []byte, dropped []bool) ([][2]int, []Action) {
	n := len(d.items)
	hasLink, keep := make([]bool, n), make([]bool, n)
	for i, it := range d.item {
		for a := it; a >= 0; a = d.items[a].parent {
			hasLink[a] = true
			if !dropped[i] {
				keep[a] = true
			}
		}
	}
	removable := func(a int) bool { return hasLink[a] && !keep[a] && d.items[a].whole }
	// removedBy is the outermost removable item holding item a, -1 when none.
	removedBy := func(a int) int {
		r := -1
		for ; a >= 0; a = d.items[a].parent {
			if removable(a) {
				r = a
			}
		}
		return r
	}

	var cuts [][2]int
	acts := make([]Action, len(d.file.Links))
	removed := map[int]bool{}
	for i, l := range d.file.Links {
		if !dropped[i] {
			continue
		}
		if r := removedBy(d.item[i]); r >= 0 {
			acts[i] = RemovedItem
			removed[r] = true
			continue
		}
		switch l.Kind {
		case Inline, Reference:
			acts[i] = Unlinked
			cuts = append(cuts, [2]int{l.Start, l.TextStart}, [2]int{l.TextEnd, l.End})
		case Autolink, Bare:
			acts[i] = Removed
			start := l.Start
			if start > 0 && src[start-1] == ' ' && (l.End == len(src) || src[l.End] == ' ' || src[l.End] == '\r' || src[l.End] == '\n') {
				start--
			}
			cuts = append(cuts, [2]int{start, l.End})
		case Definition:
			acts[i] = Removed
			ls := d.lineStart(l.Start)
			if isBlank(src[ls:l.Start]) {
				cuts = append(cuts, [2]int{ls, d.lineEnd(l.End)})
			} else {
				cuts = append(cuts, [2]int{l.Start, l.End})
			}
		}
	}
	cuts = append(cuts, d.itemCuts(src, removed)...)
	// A byte order mark belongs to the file, not to its first line.
	bomLen := 0
	if d.file.BOM {
		bomLen = len(bom)
	}
	for i := range cuts {
		if cuts[i][0] < bomLen {
			cuts[i][0] = bomLen
		}
	}
	return cuts, acts
}

// itemCuts returns the ranges that remove the items of removed (indexes in
// d.items): each item's lines, with the blank lines that separated it from
// its neighbours, and a list whose items all go as one.
func (d *doc) itemCuts(src []byte, removed map[int]bool) [][2]int {
	var cuts [][2]int
	lists := map[ast.Node]bool{}
	for a := range removed {
		lists[d.items[a].node.Parent()] = true
	}
	for list := range lists {
		var all []int // the list's items, in order
		for c := list.FirstChild(); c != nil; c = c.NextSibling() {
			if li, ok := c.(*ast.ListItem); ok {
				all = append(all, d.itemIndex[li])
			}
		}
		every := true
		for _, a := range all {
			every = every && removed[a]
		}
		if every {
			start, end := d.items[all[0]].start, d.items[all[len(all)-1]].end
			if s := d.blanksBefore(src, start); s < start {
				start = s
			} else {
				end = d.blanksAfter(src, end)
			}
			cuts = append(cuts, [2]int{start, end})
			continue
		}
		for k, a := range all {
			if !removed[a] {
				continue
			}
			start, end := d.items[a].start, d.items[a].end
			if k+1 < len(all) {
				end = d.blanksAfter(src, end)
			} else {
				start = d.blanksBefore(src, start)
			}
			cuts = append(cuts, [2]int{start, end})
		}
	}
	return cuts
}

// blanksAfter extends end, a line start, over the blank lines that follow.
func (d *doc) blanksAfter(src []byte, end int) int {
	for end < len(src) {
		next := d.lineEnd(end)
		if !isBlank(src[end:next]) {
			break
		}
		end = next
	}
	return end
}

// blanksBefore moves start, a line start, back over the blank lines before it.
func (d *doc) blanksBefore(src []byte, start int) int {
	for start > 0 {
		prev := d.lineStart(start - 1)
		if !isBlank(src[prev:start]) {
			break
		}
		start = prev
	}
	return start
}

// cut returns src without the byte ranges of cuts (which may overlap or
// nest).
func cut(src []byte, cuts [][2]int) []byte {
	sort.Slice(cuts, func(i, j int) bool { return cuts[i][0] < cuts[j][0] })
	out := make([]byte, 0, len(src))
	pos := 0
	for _, c := range cuts {
		if c[1] <= pos {
			continue
		}
		if c[0] > pos {
			out = append(out, src[pos:c[0]]...)
		}
		pos = c[1]
	}
	return append(out, src[pos:]...)
}
