package frontmatter

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Kind is what a Node holds.
type Kind uint8

// The kinds of Node.
const (
	KindNull Kind = iota
	KindBool
	KindInt
	KindFloat
	KindString
	KindTime
	KindList
	KindMap
)

// Node is one decoded value and the offset in the file where it is written. Every format
// (YAML, TOML, JSON) decodes into the same Nodes, so every reader of front matter and
// generator configuration asks the same questions of it.
//
// A map keeps its keys in the order first written; a key written twice holds the later value
// at the later position (the last one wins, as in Hugo's and Jekyll's own readers).
//
// A page's front matter is a few dozen Nodes, and a site has as many pages as it has: the fields
// are ordered, and the counters sized, so that a Node takes 144 bytes, not 160.
type Node struct {
	Kind Kind
	// Plain says a YAML scalar was written without quotes or a tag, which is what makes Ruby's
	// YAML reader (Jekyll) read it as a date or a boolean.
	Plain bool
	Bool  bool      // KindBool
	Off   int       // offset in the file of the value's first byte (of its key for a TOML table)
	Text  string    // a scalar as written (YAML's plain or quoted text, a TOML or JSON literal)
	Int   int64     // KindInt
	Num   float64   // KindFloat
	Time  time.Time // KindTime
	List  []*Node   // KindList
	Keys  []Key     // KindMap

	exact map[string]int // key -> index in Keys, for maps too long to scan
	fold  map[string]int // lower-case key -> index of the last key written that folds to it
	seq   int32          // how many writes the map has seen, for Key.seq (a file holds fewer)
	depth int32          // nesting depth below this node (0 for a scalar; at most maxDepth+1)
}

// Key is one key of a map node.
type Key struct {
	Name  string
	Off   int // offset in the file of the key
	Value *Node
	seq   int32 // order of the write that set it; the highest of keys folding alike wins Fold
	// first is 1 + the offset of this key's first write when the map wrote it more than once (the
	// later value won), else 0: a robots key given twice is an error naming both lines. An offset
	// past what an int32 holds (no front matter comes near) is kept as the largest it holds.
	first int32
}

// firstOff is the offset of the key's first write: Off when it was written once.
func (k Key) firstOff() int {
	if k.first > 0 {
		return int(k.first) - 1
	}
	return k.Off
}

// Repeat reports a key the map writes more than once, exactly so, and the offset of its first
// write; the Key's Off and Value are its last write's.
func (k Key) Repeat() (first int, ok bool) { return k.firstOff(), k.first > 0 }

// scanLimit is the number of keys up to which a map is searched by scanning; longer maps get an
// index, so that a front matter of 40,000 keys is read in linear time.
const scanLimit = 16

func newMap(off int) *Node { return &Node{Kind: KindMap, Off: off} }

// set writes key name (at offset off) to v: a new key is appended, a key written before takes
// the new value and position and keeps its place, remembering where it was first written.
func (n *Node) set(name string, off int, v *Node) {
	n.put(Key{Name: name, Off: off, Value: v})
}

// put is set for a key taken from another map (a cascade entry's values), keeping what it
// remembers of its first write.
func (n *Node) put(k Key) {
	n.seq++
	k.seq = n.seq
	name, v := k.Name, k.Value
	if i, ok := n.index(name); ok {
		k.first = int32(min(n.Keys[i].firstOff(), math.MaxInt32-1) + 1)
		n.Keys[i] = k
	} else {
		n.Keys = append(n.Keys, k)
		i = len(n.Keys) - 1
		if n.exact != nil {
			n.exact[name] = i
		}
		if len(n.Keys) > scanLimit && n.exact == nil {
			n.buildIndex()
		}
	}
	if n.fold != nil {
		i, _ := n.index(name)
		n.fold[strings.ToLower(name)] = i
	}
	if v != nil && v.depth+1 > n.depth {
		n.depth = v.depth + 1
	}
}

// setIfAbsent writes a key unless the map has it (a YAML merge key's values).
func (n *Node) setIfAbsent(name string, off int, v *Node) {
	if _, ok := n.index(name); !ok {
		n.set(name, off, v)
	}
}

func (n *Node) buildIndex() {
	n.exact = make(map[string]int, len(n.Keys))
	n.fold = make(map[string]int, len(n.Keys))
	for i, k := range n.Keys {
		n.exact[k.Name] = i
		lk := strings.ToLower(k.Name)
		if j, ok := n.fold[lk]; !ok || n.Keys[j].seq < k.seq {
			n.fold[lk] = i
		}
	}
}

func (n *Node) index(name string) (int, bool) {
	if n.exact != nil {
		i, ok := n.exact[name]
		return i, ok
	}
	for i := range n.Keys {
		if n.Keys[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// Get returns the value of key name, written exactly so (Jekyll's keys are case-sensitive); nil
// when n is not a map or has no such key.
func (n *Node) Get(name string) *Node {
	k, ok := n.Key(name)
	if !ok {
		return nil
	}
	return k.Value
}

// Key returns the key name, written exactly so.
func (n *Node) Key(name string) (Key, bool) {
	if n == nil || n.Kind != KindMap {
		return Key{}, false
	}
	i, ok := n.index(name)
	if !ok {
		return Key{}, false
	}
	return n.Keys[i], true
}

// Fold returns the key that matches name in any case (Hugo's keys, and robotsmith's own): of
// keys that differ only in case, the one written last.
func (n *Node) Fold(name string) (Key, bool) {
	if n == nil || n.Kind != KindMap {
		return Key{}, false
	}
	if n.fold != nil {
		i, ok := n.fold[strings.ToLower(name)]
		if !ok {
			return Key{}, false
		}
		return n.Keys[i], true
	}
	best := -1
	for i := range n.Keys {
		if strings.EqualFold(n.Keys[i].Name, name) && (best < 0 || n.Keys[i].seq > n.Keys[best].seq) {
			best = i
		}
	}
	if best < 0 {
		return Key{}, false
	}
	return n.Keys[best], true
}

// FoldValue is Fold's value, nil when absent.
func (n *Node) FoldValue(name string) *Node {
	k, _ := n.Fold(name)
	return k.Value
}

// IsNull reports a missing or null value.
func (n *Node) IsNull() bool { return n == nil || n.Kind == KindNull }

// Scalar returns a scalar as text: strings as they are, numbers and booleans as written, dates
// as written (or in RFC 3339 when decoded from a format that does not keep the text). ok is false
// for null, lists and maps.
func (n *Node) Scalar() (string, bool) {
	if n == nil {
		return "", false
	}
	switch n.Kind {
	case KindString:
		return n.Text, true
	case KindBool, KindInt, KindFloat, KindTime:
		if n.Text != "" {
			return n.Text, true
		}
		switch n.Kind {
		case KindBool:
			return strconv.FormatBool(n.Bool), true
		case KindInt:
			return strconv.FormatInt(n.Int, 10), true
		case KindFloat:
			return strconv.FormatFloat(n.Num, 'f', -1, 64), true
		}
		return formatTime(n.Time), true
	}
	return "", false
}

// String is Scalar without ok: "" for anything that is not a scalar.
func (n *Node) String() string {
	s, _ := n.Scalar()
	return s
}

// Truth reads a boolean the way Hugo's and Jekyll's themes write one: true and false, what
// strconv.ParseBool reads ("TRUE", "1"), YAML 1.1's yes/no/on/off (Jekyll's YAML reader makes
// them booleans), and the integers 0 and 1 (Hugo's cast.ToBool). ok is false for anything else.
func (n *Node) Truth() (b, ok bool) {
	if n == nil {
		return false, false
	}
	switch n.Kind {
	case KindBool:
		return n.Bool, true
	case KindInt:
		return n.Int == 1, n.Int == 0 || n.Int == 1
	case KindString:
		s := strings.TrimSpace(n.Text)
		switch strings.ToLower(s) {
		case "yes", "on":
			return true, true
		case "no", "off":
			return false, true
		}
		b, err := strconv.ParseBool(s)
		return b, err == nil
	}
	return false, false
}

// Strings reads a string or a list of scalars; ok is false for anything else. Null gives none.
func (n *Node) Strings() ([]string, bool) {
	switch {
	case n.IsNull():
		return nil, true
	case n.Kind == KindList:
		out := make([]string, 0, len(n.List))
		for _, e := range n.List {
			s, ok := e.Scalar()
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	s, ok := n.Scalar()
	if !ok {
		return nil, false
	}
	return []string{s}, true
}

// StringList reads a string or a list of strings, and nothing else (robotsmith's own keys are
// read exactly: `robots: 42` is a mistake to report, not a value to guess at). Null gives none.
func (n *Node) StringList() ([]string, bool) {
	switch {
	case n.IsNull():
		return nil, true
	case n.Kind == KindString:
		return []string{n.Text}, true
	case n.Kind != KindList:
		return nil, false
	}
	out := make([]string, 0, len(n.List))
	for _, e := range n.List {
		if e.Kind != KindString {
			return nil, false
		}
		out = append(out, e.Text)
	}
	return out, true
}

// Any turns n into plain Go values (map[string]any, []any, string, bool, int64, float64,
// time.Time, nil), for settings read loosely. Map keys are lower-cased when lower is set (Hugo's
// keys are case-insensitive; of keys that fold alike the one written last wins). A node shared
// through YAML aliases is expanded at every place, up to budget nodes in all; past it the
// shared parts are left out (nil), so that no input can make the result grow out of bounds.
func (n *Node) Any(lower bool) any {
	budget := 1 << 20
	return n.toAny(lower, &budget)
}

func (n *Node) toAny(lower bool, budget *int) any {
	if n == nil || *budget <= 0 {
		return nil
	}
	*budget--
	switch n.Kind {
	case KindBool:
		return n.Bool
	case KindInt:
		return n.Int
	case KindFloat:
		return n.Num
	case KindString:
		return n.Text
	case KindTime:
		return n.Time
	case KindList:
		l := make([]any, len(n.List))
		for i, e := range n.List {
			l[i] = e.toAny(lower, budget)
		}
		return l
	case KindMap:
		m := make(map[string]any, len(n.Keys))
		for _, k := range n.Keys {
			name := k.Name
			if lower {
				name = strings.ToLower(name)
				if w, _ := n.Fold(name); w.seq != k.seq {
					continue // a key folding alike was written later
				}
			}
			m[name] = k.Value.toAny(lower, budget)
		}
		return m
	}
	return nil
}

// describe names a value's kind for an error message, with the value when it is short. A list is
// named with the first of its values that is not a string, whose own values are not described: a
// message says what one value is, once, however deep the list (or an alias) nests.
func (n *Node) describe() string {
	if n != nil && n.Kind == KindList {
		for _, e := range n.List {
			if e.Kind != KindString {
				return "a list of values that are not all strings (" + e.describeShallow() + ")"
			}
		}
		return "a list of strings"
	}
	return n.describeShallow()
}

// describeShallow is describe without a list's values.
func (n *Node) describeShallow() string {
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case KindNull:
		return "null"
	case KindMap:
		return "a map"
	case KindList:
		return "a list"
	case KindString:
		return strconv.Quote(excerpt(n.Text))
	case KindTime:
		return "the date " + n.String()
	}
	return excerpt(n.String())
}

// formatTime writes a decoded date: TOML's local dates and date-times as written (they carry no
// zone), anything else as RFC 3339.
func formatTime(t time.Time) string {
	switch t.Location().String() {
	case "date-local":
		return t.Format("2006-01-02")
	case "datetime-local":
		return t.Format("2006-01-02T15:04:05.999999999")
	case "time-local":
		return t.Format("15:04:05.999999999")
	}
	return t.Format(time.RFC3339Nano)
}

// maxExcerpt is the most of the input an error message quotes.
const maxExcerpt = 60

// maxMessage is the longest message a decoder's error may keep (some quote the input).
const maxMessage = 200

// excerpt shortens s for an error message.
func excerpt(s string) string { return cut(s, maxExcerpt) }

// shortMessage shortens a decoder's error message.
func shortMessage(s string) string { return cut(s, maxMessage) }

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
