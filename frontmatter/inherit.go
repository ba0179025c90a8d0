package frontmatter

import (
	"strings"

	"github.com/robotsmith/robotsmith/rules"
)

// RobotsKey is one robots key that a map of front matter writes, whatever its value. Hugo and
// Jekyll merge a page's own front matter over what its cascades or front matter defaults pass
// down, so that a key the page writes replaces an inherited key of the same name (SPEC §3.3):
// what replaces is the key, and `noindex: false`, which gives no input, replaces as much as
// `robots: index` does.
type RobotsKey struct {
	// Source is the key as RobotsIn names the inputs it gives: its Kind, File and Line, and Key as
	// written ("robots", "params.noindex", "robots.googlebot" for an agent of a robots map).
	Source rules.Source
	// In is the robots key whose map holds this agent's key ("robots" at its own line), the zero
	// Source for a key no robots map holds.
	In rules.Source
	// Empty says the key says nothing: it has no value, or an empty string, list or map.
	Empty bool
}

// RobotsKeys appends to dst the robots keys of the map m of this document that RobotsIn reads, in
// the same places: each robots key, each agent's key of a robots map (an empty map is one empty
// key), and, in Hugo's dialect, those under params. kind is the Source.Kind of every key. A key of
// the wrong type is listed as any other: RobotsIn reports it. (A caller that keeps only some of
// them passes a buffer of its own: most pages have a key or two.)
func (d *Document) RobotsKeys(dst []RobotsKey, m *Node, kind rules.Kind) []RobotsKey {
	if m == nil || m.Kind != KindMap {
		return dst
	}
	out := dst
	keys := robotsKeys(d.dialect)
	read := func(m *Node, prefix string) {
		for _, name := range keys {
			k, ok := m.Fold(name)
			if !ok {
				continue
			}
			src := rules.Source{Kind: kind, File: d.File, Line: d.Line(k.Off), Key: intern(prefix + k.Name)}
			if name != "robots" || k.Value.Kind != KindMap || len(k.Value.Keys) == 0 {
				out = append(out, RobotsKey{Source: src, Empty: empty(k.Value)})
				continue
			}
			for _, a := range k.Value.Keys {
				s := src
				s.Key, s.Line = intern(src.Key+"."+a.Name), d.Line(a.Off)
				out = append(out, RobotsKey{Source: s, In: src, Empty: empty(a.Value)})
			}
		}
	}
	read(m, "")
	if p, ok := m.Fold("params"); ok && d.dialect == Hugo && p.Value.Kind == KindMap {
		read(p.Value, p.Name+".")
	}
	return out
}

// empty reports whether a robots value says nothing: null, an empty or blank string, or a list or
// map of nothing else.
func empty(v *Node) bool {
	switch {
	case v.IsNull():
		return true
	case v.Kind == KindString:
		return strings.TrimSpace(v.Text) == ""
	case v.Kind == KindList:
		for _, e := range v.List {
			if !empty(e) {
				return false
			}
		}
		return true
	case v.Kind == KindMap:
		for _, k := range v.Keys {
			if !empty(k.Value) {
				return false
			}
		}
		return true
	}
	return false
}
