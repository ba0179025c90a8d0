package frontmatter

import (
	"errors"
	"fmt"
	"strings"
)

// Cascade is one Hugo cascade entry, from `cascade:` as a map or a list of
// maps.
type Cascade struct {
	Target Target         // from `target` or its old name `_target`; zero Target matches all
	Values map[string]any // the entry without its target key
	Line   int            // line of the entry (or of the `cascade` key) in the file
}

// Target selects the pages a cascade entry applies to: Hugo glob strings, as
// written. An empty field matches everything.
type Target struct {
	Path, Kind string
	// Lang is the old `lang` selector (one glob), removed in Hugo 0.165.
	Lang        string
	Environment string
	// Languages is Hugo's newer selector, `sites: {matrix: {languages: [...]}}`
	// (a string or a list of globs, as written); a page matches when its
	// language matches any of them. nil when not given.
	Languages []string
}

// Cascades returns the entries of the `cascade` key in the order written. A
// value that is not a map or a list of maps, or a target that is not a map of
// strings, is an *Error at the entry's line; all problems are returned
// together.
func (d *Document) Cascades() (out []Cascade, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &Error{File: d.File, Err: fmt.Errorf("front matter: internal error: %v", r)}
		}
	}()
	k, ok := d.lookup("cascade")
	if !ok {
		return nil, nil
	}
	keyLine := d.Line(k)
	lineOf := func(i int) int {
		if i < len(d.cascade) {
			l, _ := d.lineCol(d.cascade[i])
			return l
		}
		return keyLine
	}
	var entries []any
	switch v := d.Fields[k].(type) {
	case nil:
		return nil, nil
	case map[string]any:
		entries = []any{v}
	case []any:
		entries = v
	case []map[string]any: // TOML [[cascade]]
		for _, e := range v {
			entries = append(entries, e)
		}
	default:
		return nil, &Error{File: d.File, Line: keyLine, Err: fmt.Errorf("front matter: %s: want a map or a list of maps, got %s", k, describe(v))}
	}
	var errs []error
	for i, e := range entries {
		line := keyLine
		if _, isMap := d.Fields[k].(map[string]any); !isMap {
			line = lineOf(i)
		}
		m, ok := e.(map[string]any)
		if !ok {
			errs = append(errs, &Error{File: d.File, Line: line, Err: fmt.Errorf("front matter: %s: entry %d: want a map, got %s", k, i+1, describe(e))})
			continue
		}
		c, err := cascadeEntry(m)
		if err != nil {
			errs = append(errs, &Error{File: d.File, Line: line, Err: fmt.Errorf("front matter: %s: %w", k, err)})
			continue
		}
		c.Line = line
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, errors.Join(errs...)
	}
	return out, nil
}

// cascadeEntry splits one entry into its target and its values. Hugo renamed
// `_target` to `target`; when both are written `target` is used.
func cascadeEntry(m map[string]any) (Cascade, error) {
	var c Cascade
	c.Values = make(map[string]any, len(m))
	var target, oldTarget any
	hasTarget, hasOld := false, false
	for k, v := range m {
		switch strings.ToLower(k) {
		case "target":
			target, hasTarget = v, true
		case "_target":
			oldTarget, hasOld = v, true
		default:
			c.Values[k] = v
		}
	}
	if !hasTarget && hasOld {
		target, hasTarget = oldTarget, true
	}
	if !hasTarget || target == nil {
		return c, nil
	}
	tm, ok := target.(map[string]any)
	if !ok {
		return c, fmt.Errorf("target: want a map, got %s", describe(target))
	}
	for k, v := range tm {
		var dst *string
		switch strings.ToLower(k) {
		case "sites":
			ls, err := matrixLanguages(v)
			if err != nil {
				return c, fmt.Errorf("target: %w", err)
			}
			c.Target.Languages = ls
			continue
		case "path":
			dst = &c.Target.Path
		case "kind":
			dst = &c.Target.Kind
		case "lang":
			dst = &c.Target.Lang
		case "environment":
			dst = &c.Target.Environment
		default:
			continue // other selectors (sites, ...) are Hugo's business
		}
		s, ok := v.(string)
		if !ok && v != nil {
			return c, fmt.Errorf("target: %s: want a string, got %s", k, describe(v))
		}
		*dst = s
	}
	return c, nil
}

// matrixLanguages reads `languages` from a target's `sites: {matrix: {...}}`
// (keys in any case, as Hugo lower-cases them); other matrix dimensions
// (versions, roles) are left to the caller's generator mapping.
func matrixLanguages(sites any) ([]string, error) {
	sm, ok := sites.(map[string]any)
	if !ok {
		if sites == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("sites: want a map, got %s", describe(sites))
	}
	k, ok := lookupFold(sm, "matrix")
	if !ok || sm[k] == nil {
		return nil, nil
	}
	mm, ok := sm[k].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("sites.matrix: want a map, got %s", describe(sm[k]))
	}
	k, ok = lookupFold(mm, "languages")
	if !ok {
		return nil, nil
	}
	ls, ok := stringList(mm[k])
	if !ok {
		return nil, fmt.Errorf("sites.matrix.languages: want a string or a list of strings, got %s", describe(mm[k]))
	}
	return ls, nil
}
