package rules

import "strings"

// entry is one slot's value in a set, with where it came from.
type entry struct {
	has bool
	tok tok
	src Source
	pri priority
}

// set is one agent's resolved directives, one entry per slot.
type set [numSlots]entry

// wins reports whether candidate a should replace b in a slot: the more
// restrictive value wins whatever its source (SPEC §4); for the same value the
// provenance goes to the source that beats the other (see priority.beats).
func wins(a, b entry) bool {
	if !b.has {
		return a.has
	}
	if !a.has {
		return false
	}
	if ka, kb := a.tok.key(), b.tok.key(); ka != kb {
		return ka < kb
	}
	return a.pri.beats(b.pri)
}

// add merges one candidate.
func (s *set) add(e entry) {
	if wins(e, s[e.tok.slot]) {
		s[e.tok.slot] = e
	}
}

// merged returns the slot-wise merge of s and o (commutative, associative and
// idempotent because wins is a strict total order on candidates).
func (s set) merged(o set) set {
	for _, e := range o {
		if e.has {
			s.add(e)
		}
	}
	return s
}

// empty reports whether no slot is set.
func (s set) empty() bool {
	for _, e := range s {
		if e.has {
			return false
		}
	}
	return true
}

// values lists the set in the fixed output order (SPEC §4), dropping nocache
// when noarchive is also set (Bing reads the pair as the weaker nocache) and
// max-snippet under nosnippet.
func (s set) values() []Value {
	var vs []Value
	for i, e := range s {
		if !e.has {
			continue
		}
		switch slot(i) {
		case slotNocache:
			if s[slotNoarchive].has {
				continue
			}
		case slotMaxSnippet:
			if s[slotNosnippet].has {
				continue
			}
		}
		vs = append(vs, Value{Token: e.tok.String(), Source: e.src})
	}
	return vs
}

// content is the set written as a meta content value.
func (s set) content() string { return joinValues(s.values()) }

func joinValues(vs []Value) string {
	toks := make([]string, len(vs))
	for i, v := range vs {
		toks[i] = v.Token
	}
	return strings.Join(toks, ", ")
}
