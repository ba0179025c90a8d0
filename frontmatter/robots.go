package frontmatter

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// robotsKeys are the front-matter keys SPEC §3 reads, in the order Robots reports them. Hugo reads
// a page's expiry date from expiryDate or unpublishDate; an expired page that is still published
// gets unavailable_after. Those two are Hugo's keys: a Jekyll page's are not read.
func robotsKeys(dialect Dialect) []string {
	if dialect == Jekyll {
		return []string{"robots", "noindex", "nofollow", "unavailable_after"}
	}
	return []string{"robots", "noindex", "nofollow", "unavailable_after", "expirydate", "unpublishdate"}
}

// Robots returns the directives SPEC §3 defines in the front matter, each with
// Source{Kind: rules.FromFrontMatter, File, Line of the key, Key as written}. In Hugo's dialect the
// keys are read under `params` too (Hugo's place for custom front matter), Key "params.robots".
// A value of the wrong type is an *Error at the key's line; all such problems are returned
// together. A key that looks like a misspelt robots key (`noindx: true`) is an error when it would
// have hidden the page, else a warning in d.Warnings when it would have restricted it (typos.go).
func (d *Document) Robots() ([]rules.Input, error) {
	return d.RobotsIn(d.Root, rules.FromFrontMatter)
}

// RobotsIn does what Robots does for any map of this document: a cascade entry's values, a
// Jekyll `defaults` entry's values in _config.yml. kind is the Source.Kind of every Input.
//
// A robots key given more than once in m (also in another case), or in Hugo's `params` (also
// across `Params` and `params`, which Hugo merges), is an error at the line of its last write
// naming its first: the generator keeps one of them, and which one decides whether the page is
// public.
func (d *Document) RobotsIn(m *Node, kind rules.Kind) ([]rules.Input, error) {
	if m == nil || m.Kind != KindMap {
		return nil, nil
	}
	var in []rules.Input
	var errs []error
	keys := robotsKeys(d.dialect)
	// read reads the robots keys of maps, each a Key naming a map (its Name the prefix of its
	// keys' names: "" or "params") that robotsmith reads as one.
	read := func(maps []Key) {
		for _, name := range keys {
			found := 0
			for _, mk := range maps {
				k, ok := mk.Value.Fold(name)
				if !ok {
					continue
				}
				found++
				src := rules.Source{Kind: kind, File: d.File, Line: d.Line(k.Off), Key: intern(prefixed(mk.Name, k.Name))}
				var err error
				if in, err = d.robotsValue(in, name, k.Value, src); err != nil {
					errs = append(errs, err)
				}
			}
			if found > 0 {
				if err := d.givenAgain(name, maps); err != nil {
					errs = append(errs, err)
				}
			}
		}
		// The other keys are not robotsmith's, unless they look like a robots key misspelt
		// (typos.go).
		for _, mk := range maps {
			for _, k := range mk.Value.Keys {
				if slices.ContainsFunc(keys, func(name string) bool { return strings.EqualFold(name, k.Name) }) {
					continue
				}
				if err := d.lookalike(k, prefixed(mk.Name, "")); err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	read([]Key{{Value: m}})
	if d.dialect == Hugo {
		var params []Key
		for _, p := range m.Keys {
			if p.Value.Kind == KindMap && strings.EqualFold(p.Name, "params") {
				params = append(params, p)
			}
		}
		if len(params) > 0 {
			read(params)
		}
	}
	return in, errors.Join(errs...)
}

// prefixed is key name under the map named prefix ("" for the top).
func prefixed(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// givenAgain reports the robots key name (lower case) written more than once in maps (as read):
// an error at the line of its last write, naming the first.
func (d *Document) givenAgain(name string, maps []Key) error {
	var first, last, firstMap, lastMap Key
	n := 0
	for _, mk := range maps {
		for _, k := range mk.Value.Keys {
			if !strings.EqualFold(k.Name, name) {
				continue
			}
			if n == 0 || k.firstOff() < first.firstOff() {
				first, firstMap = k, mk
			}
			if n == 0 || k.Off > last.Off {
				last, lastMap = k, mk
			}
			n++
			if k.first > 0 {
				n++
			}
		}
	}
	if n < 2 {
		return nil
	}
	return d.againError(prefixed(lastMap.Name, last.Name), last.Off, prefixed(firstMap.Name, first.Name), first.firstOff())
}

// againError is the error for key, written at off, which was written before at firstOff as
// firstKey.
func (d *Document) againError(key string, off int, firstKey string, firstOff int) error {
	as := ""
	if firstKey != key {
		as = fmt.Sprintf(", as %q", excerpt(firstKey))
	}
	return &Error{File: d.File, Line: d.Line(off), Code: problem.RobotsKeyRepeated,
		Err:     fmt.Errorf("%s: %s given again (first at line %d%s)", d.what, excerpt(key), d.Line(firstOff), as),
		Related: []problem.Related{{Position: problem.Position{File: d.File, Line: d.Line(firstOff)}, Msg: "first given here"}}}
}

// robotsValue reads the value v of a robots key (name is the key lower case) and appends its
// inputs to in; on an error it returns in as it was.
func (d *Document) robotsValue(in []rules.Input, name string, v *Node, src rules.Source) ([]rules.Input, error) {
	fail := func(format string, args ...any) error {
		return &Error{File: src.File, Line: src.Line, Code: problem.RobotsKeyWrongType,
			Err: fmt.Errorf("%s: %s: "+format, append([]any{d.what, src.Key}, args...)...)}
	}
	if v.IsNull() {
		return in, nil // `robots:` with no value sets nothing
	}
	switch name {
	case "robots":
		if v.Kind == KindMap {
			agents, err := d.robotsAgents(v, src, fail)
			if err != nil {
				return in, err
			}
			return append(in, agents...), nil
		}
		vals, ok := v.StringList()
		if !ok {
			return in, fail("want a string, a list of strings or a map of agent to directives, got %s", v.describe())
		}
		return appendInputs(in, "robots", vals, src), nil
	case "noindex", "nofollow":
		b, ok := v.Truth()
		if !ok {
			return in, fail("want true or false, got %s", v.describe())
		}
		if !b {
			return in, nil
		}
		return append(in, rules.Input{Agent: "robots", Value: name, Source: src}), nil
	}
	// unavailable_after and the expiry dates: a date as written.
	if v.Kind != KindString && v.Kind != KindTime {
		return in, fail("want a date, got %s", v.describe())
	}
	date := strings.TrimSpace(v.String())
	if date == "" {
		return in, nil
	}
	return append(in, rules.Input{Agent: "robots", Value: "unavailable_after:" + date, Source: src}), nil
}

// robotsAgents reads `robots` as a map of agent to directives, agents in name order.
func (d *Document) robotsAgents(v *Node, src rules.Source, fail func(string, ...any) error) ([]rules.Input, error) {
	keys := append([]Key(nil), v.Keys...)
	sort.Slice(keys, func(i, j int) bool { return keys[i].Name < keys[j].Name })
	var in []rules.Input
	var seen map[string]Key // agent -> its first key, when there are several
	if len(keys) > 1 {
		seen = make(map[string]Key, len(keys))
	}
	for _, k := range keys {
		agent := intern(strings.ToLower(strings.TrimSpace(k.Name)))
		if agent == "" {
			err := fail("empty agent name").(*Error)
			err.Code = problem.InvalidAgentName
			return nil, err
		}
		// An agent given twice, as one key or two that name it alike: an error, as for the keys
		// above.
		first, twice := seen[agent]
		if twice && first.firstOff() > k.firstOff() {
			first, k = k, first
		}
		if twice || k.first > 0 {
			if !twice {
				first = k
			}
			return nil, d.againError(src.Key+"."+k.Name, k.Off, src.Key+"."+first.Name, first.firstOff())
		}
		if seen != nil {
			seen[agent] = k
		}
		s := src
		s.Key = intern(src.Key + "." + k.Name)
		s.Line = d.Line(k.Off)
		vals, ok := k.Value.StringList()
		if !ok {
			return nil, fail("%s: want a string or a list of strings, got %s", excerpt(k.Name), k.Value.describe())
		}
		in = appendInputs(in, agent, vals, s)
	}
	return in, nil
}

// appendInputs adds one Input per non-blank value, trimmed.
func appendInputs(in []rules.Input, agent string, vals []string, src rules.Source) []rules.Input {
	for _, s := range vals {
		if s = strings.TrimSpace(s); s != "" {
			in = append(in, rules.Input{Agent: agent, Value: intern(s), Source: src})
		}
	}
	return in
}

// common are the strings that many pages' robots inputs say alike: the keys as they are usually
// written, the agents most often named and the most common values. An input keeps the string here
// rather than one of its own: the inputs of every page are kept for the whole run (messages name
// their sources), and a site whose pages all say `robots: "noindex, nofollow"` then keeps that
// string once, not once a page. Never changed after it is made.
var common = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		"robots", "noindex", "nofollow", "unavailable_after", "expirydate", "expiryDate",
		"unpublishdate", "unpublishDate", "params.robots", "params.noindex", "params.nofollow",
		"googlebot", "bingbot", "robots.googlebot", "robots.bingbot", "googlebot-news", "robots.googlebot-news",
		"index", "follow", "none", "all", "noarchive", "nosnippet", "noimageindex", "notranslate",
		"indexifembedded", "nocache", "noai", "noimageai",
		"noindex, nofollow", "noindex,nofollow", "noindex, follow", "index, follow", "index, nofollow",
		"noindex, noarchive", "noindex, nofollow, noarchive",
	} {
		m[s] = s
	}
	return m
}()

// intern is s, or the one copy common keeps of a string equal to it: then s, the parser's copy or
// one joined for the call, is let go with the document.
func intern(s string) string {
	if c, ok := common[s]; ok {
		return c
	}
	return s
}
