package frontmatter

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/robotsmith/robotsmith/rules"
)

// robotsKeys are the front-matter keys SPEC §3 reads, in the order Robots
// reports them. Hugo reads a page's expiry date from expiryDate or
// unpublishDate; an expired page that is still published gets
// unavailable_after.
func robotsKeys() [6]string {
	return [...]string{"robots", "noindex", "nofollow", "unavailable_after", "expirydate", "unpublishdate"}
}

// Robots returns the directives SPEC §3 defines in the front matter, each
// with Source{Kind: rules.FromFrontMatter, File, Line of the key, Key as
// written}. A value of the wrong type is an *Error at the key's line; all such
// problems are returned together.
func (d *Document) Robots() (in []rules.Input, err error) {
	defer func() {
		if r := recover(); r != nil {
			in, err = nil, &Error{File: d.File, Err: fmt.Errorf("front matter: internal error: %v", r)}
		}
	}()
	var errs []error
	for _, name := range robotsKeys() {
		k, ok := d.lookup(name)
		if !ok {
			continue
		}
		src := rules.Source{Kind: rules.FromFrontMatter, File: d.File, Line: d.Line(k), Key: k}
		v := d.Fields[k]
		// A date as YAML wrote it, rather than as time.Time formats it.
		if _, isTime := v.(time.Time); isTime {
			if raw, ok := d.raw[strings.ToLower(k)]; ok {
				v = raw
			}
		}
		got, err := robotsValue(name, k, v, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		in = append(in, got...)
	}
	if len(errs) > 0 {
		return in, errors.Join(errs...)
	}
	return in, nil
}

// RobotsFrom does what Robots does for any map of front-matter-like values
// (a cascade entry's values, a Jekyll `defaults` entry's values); src is used
// for every Input, with Key set to the key as written. Errors are *Error at
// src.File and src.Line.
func RobotsFrom(values map[string]any, src rules.Source) (in []rules.Input, err error) {
	defer func() {
		if r := recover(); r != nil {
			in, err = nil, &Error{File: src.File, Line: src.Line, Err: fmt.Errorf("front matter: internal error: %v", r)}
		}
	}()
	var errs []error
	for _, name := range robotsKeys() {
		k, ok := lookupFold(values, name)
		if !ok {
			continue
		}
		s := src
		s.Key = k
		got, err := robotsValue(name, k, values[k], s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		in = append(in, got...)
	}
	if len(errs) > 0 {
		return in, errors.Join(errs...)
	}
	return in, nil
}

// robotsValue reads the value v of the front-matter key k (name is k lower
// case).
func robotsValue(name, k string, v any, src rules.Source) ([]rules.Input, error) {
	fail := func(format string, args ...any) error {
		return &Error{File: src.File, Line: src.Line, Err: fmt.Errorf("front matter: %s: "+format, append([]any{k}, args...)...)}
	}
	if v == nil {
		return nil, nil // `robots:` with no value sets nothing
	}
	switch name {
	case "robots":
		switch v := v.(type) {
		case map[string]any:
			agents := make([]string, 0, len(v))
			for a := range v {
				agents = append(agents, a)
			}
			sort.Strings(agents)
			var in []rules.Input
			for _, a := range agents {
				agent := strings.ToLower(strings.TrimSpace(a))
				if agent == "" {
					return nil, fail("empty agent name")
				}
				s := src
				s.Key = k + "." + a
				vals, ok := stringList(v[a])
				if !ok {
					return nil, fail("%s: want a string or a list of strings, got %s", a, describe(v[a]))
				}
				in = appendInputs(in, agent, vals, s)
			}
			return in, nil
		default:
			vals, ok := stringList(v)
			if !ok {
				return nil, fail("want a string, a list of strings or a map of agent to directives, got %s", describe(v))
			}
			return appendInputs(nil, "robots", vals, src), nil
		}
	case "noindex", "nofollow":
		b, ok := toBool(v)
		if !ok {
			return nil, fail("want true or false, got %s", describe(v))
		}
		if !b {
			return nil, nil
		}
		return []rules.Input{{Agent: "robots", Value: name, Source: src}}, nil
	default: // unavailable_after and the expiry dates
		var date string
		switch v := v.(type) {
		case string:
			date = strings.TrimSpace(v)
		case time.Time:
			date = formatTime(v)
		default:
			return nil, fail("want a date, got %s", describe(v))
		}
		if date == "" {
			return nil, nil
		}
		return []rules.Input{{Agent: "robots", Value: "unavailable_after:" + date, Source: src}}, nil
	}
}

// stringList reads a string or a list of strings; nil gives none.
func stringList(v any) ([]string, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case string:
		return []string{v}, true
	case []string:
		return v, true
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// appendInputs adds one Input per non-blank value, trimmed.
func appendInputs(in []rules.Input, agent string, vals []string, src rules.Source) []rules.Input {
	for _, s := range vals {
		if s = strings.TrimSpace(s); s != "" {
			in = append(in, rules.Input{Agent: agent, Value: s, Source: src})
		}
	}
	return in
}

// describe names a value's type for an error message, with the value when
// it is short.
func describe(v any) string {
	switch v := v.(type) {
	case map[string]any, map[any]any:
		return "a map"
	case []any:
		return "a list of " + describeList(v)
	case string:
		return fmt.Sprintf("%q", v)
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(v)
	case time.Time:
		return "the date " + formatTime(v)
	}
	return fmt.Sprintf("%T", v)
}

func describeList(v []any) string {
	for _, e := range v {
		if _, ok := e.(string); !ok {
			return "values that are not all strings (" + describe(e) + ")"
		}
	}
	return "strings"
}
