package frontmatter

import (
	"errors"
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
	"github.com/robotsmith/robotsmith/rules"
)

// Cascade is one Hugo cascade entry, from `cascade:` as a map or a list of maps, in a page's front
// matter or in the site configuration: both are decoded here, by the same rules.
type Cascade struct {
	Target Target // from `target` or its old name `_target`; the zero Target matches all
	// Values is the entry without its target: the fields and params it passes down (a map).
	Values *Node
	Line   int           // line of the entry (of the `cascade` key for a single map) in the file
	Inputs []rules.Input // the robots keys of Values, each rules.FromCascade at its own line
}

// Target selects the pages a cascade entry applies to: Hugo glob strings, as written. An empty
// field matches everything.
type Target struct {
	Path, Kind string
	// Lang is the old `lang` selector (one glob).
	Lang        string
	Environment string
	// Languages is Hugo's newer selector, `sites: {matrix: {languages: [...]}}` (a string or a
	// list of globs, as written); a page matches when its language matches any of them. nil when
	// not given.
	Languages []string
}

// Cascades returns the entries of the front matter's `cascade` key in the order written.
func (d *Document) Cascades() ([]Cascade, error) {
	k, ok := d.Root.Fold("cascade")
	if !ok {
		return nil, nil
	}
	return d.CascadesAt(k)
}

// CascadesAt decodes the cascade value of key k of this document (front matter, or a site
// configuration file). A value that is not a map or a list of maps, or a target that is not a map
// of strings, is an *Error at the entry's line; all problems are returned together. An entry
// that writes both `target` and `_target` uses `target` (Hugo takes whichever its map iteration
// meets last, so its choice changes from run to run) and the document gets a warning.
func (d *Document) CascadesAt(k Key) ([]Cascade, error) {
	var entries []*Node
	switch v := k.Value; {
	case v.IsNull():
		return nil, nil
	case v.Kind == KindMap:
		entries = []*Node{v}
	case v.Kind == KindList:
		entries = v.List
	default:
		return nil, d.errAt(problem.CascadeInvalid, k.Off, false, fmt.Errorf("%s: want a map or a list of maps, got %s", k.Name, v.describe()))
	}
	var out []Cascade
	var errs []error
	for i, e := range entries {
		line := d.Line(e.Off)
		if k.Value.Kind == KindMap {
			line = d.Line(k.Off)
		}
		if e.Kind != KindMap {
			errs = append(errs, &Error{File: d.File, Line: line, Code: problem.CascadeInvalid, Err: fmt.Errorf("%s: %s: entry %d: want a map, got %s", d.what, k.Name, i+1, e.describe())})
			continue
		}
		c, err := d.cascadeEntry(e)
		if err != nil {
			errs = append(errs, &Error{File: d.File, Line: line, Code: problem.CascadeInvalid, Err: fmt.Errorf("%s: %s: %w", d.what, k.Name, err)})
			continue
		}
		c.Line = line
		c.Inputs, err = d.RobotsIn(c.Values, rules.FromCascade)
		if err != nil {
			errs = append(errs, err)
		}
		out = append(out, c)
	}
	return out, errors.Join(errs...)
}

// cascadeEntry splits one entry into its target and its values.
func (d *Document) cascadeEntry(m *Node) (Cascade, error) {
	c := Cascade{Values: newMap(m.Off)}
	var target, old *Key
	for i := range m.Keys {
		k := &m.Keys[i]
		switch strings.ToLower(k.Name) {
		case "target":
			target = k
		case "_target":
			old = k
		default:
			c.Values.put(*k) // with where it was first written: a robots key given twice is an error
		}
	}
	if target != nil && old != nil {
		d.Warnings = append(d.Warnings, &Error{File: d.File, Line: d.Line(old.Off), Code: problem.CascadeTwoTargets,
			Err: fmt.Errorf("%s: cascade entry has both target and _target: robotsmith uses target (Hugo picks either, at random); remove one", d.what)})
	}
	if target == nil {
		target = old
	}
	if target == nil || target.Value.IsNull() {
		return c, nil
	}
	if target.Value.Kind != KindMap {
		return c, fmt.Errorf("%s: want a map, got %s", target.Name, target.Value.describe())
	}
	err := c.Target.read(target.Value)
	if err != nil {
		err = fmt.Errorf("%s: %w", target.Name, err)
	}
	return c, err
}

// read fills t from a target map (keys in any case, as Hugo reads them).
func (t *Target) read(m *Node) error {
	for _, k := range m.Keys {
		var dst *string
		switch strings.ToLower(k.Name) {
		case "sites":
			ls, err := matrixLanguages(k.Value)
			if err != nil {
				return err
			}
			t.Languages = ls
			continue
		case "path":
			dst = &t.Path
		case "kind":
			dst = &t.Kind
		case "lang":
			dst = &t.Lang
		case "environment":
			dst = &t.Environment
		default:
			continue // other selectors are Hugo's business
		}
		if k.Value.IsNull() {
			continue
		}
		s, ok := k.Value.Scalar()
		if !ok {
			return fmt.Errorf("%s: want a string, got %s", k.Name, k.Value.describe())
		}
		*dst = s
	}
	return nil
}

// matrixLanguages reads `languages` from a target's `sites: {matrix: {...}}`; other matrix
// dimensions (versions, roles) are left to the caller's generator mapping.
func matrixLanguages(sites *Node) ([]string, error) {
	if sites.IsNull() {
		return nil, nil
	}
	if sites.Kind != KindMap {
		return nil, fmt.Errorf("sites: want a map, got %s", sites.describe())
	}
	mm := sites.FoldValue("matrix")
	if mm.IsNull() {
		return nil, nil
	}
	if mm.Kind != KindMap {
		return nil, fmt.Errorf("sites.matrix: want a map, got %s", mm.describe())
	}
	ls, ok := mm.FoldValue("languages").Strings()
	if !ok {
		return nil, fmt.Errorf("sites.matrix.languages: want a string or a list of strings, got %s", mm.FoldValue("languages").describe())
	}
	return ls, nil
}
