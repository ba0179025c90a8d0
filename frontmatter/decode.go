package frontmatter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

// offAt turns a 1-based line and column (in runes) inside the front matter
// block into an offset in the file.
func (d *Document) offAt(line, col int) int {
	if d.lines == nil {
		// Start offsets of the lines from the block on, computed once so
		// that placing many keys stays linear.
		d.lines = []int{d.start}
		for off := d.start; off < len(d.src); {
			j := bytes.IndexByte(d.src[off:], '\n')
			if j < 0 {
				break
			}
			off += j + 1
			d.lines = append(d.lines, off)
		}
	}
	if line < 1 {
		line = 1
	}
	if line > len(d.lines) {
		return len(d.src)
	}
	off := d.lines[line-1]
	for i := 1; i < col && off < len(d.src) && d.src[off] != '\n'; i++ {
		_, n := utf8.DecodeRune(d.src[off:])
		off += n
	}
	return off
}

// yamlScannerProblem reports whether msg is one of the yaml.v3 scanner's
// problems. yaml.v3 gives no structured position, and the line in its
// message counts from 1 for scanner errors but from 0 for parser errors
// (decode.go's parser.fail adds 1 for scanner errors only), so the kind of
// error must be told from its text.
func yamlScannerProblem(msg string) bool {
	for _, p := range [...]string{
		"block sequence entries are not allowed",
		"could not find expected",
		"did not find expected alphabetic",
		"did not find expected comment or line break",
		"did not find expected digit",
		"did not find expected hexdecimal",
		"did not find expected version",
		"did not find expected whitespace",
		"did not find the expected '>'",
		"exceeded max depth",
		"found a tab character",
		"found an indentation indicator",
		"found character that cannot start",
		"found extremely long version",
		"found invalid Unicode",
		"found unexpected document indicator",
		"found unexpected end of stream",
		"found unexpected non-alphabetical",
		"found unknown directive",
		"found unknown escape",
		"mapping keys are not allowed",
		"mapping values are not allowed",
	} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// yamlError turns a yaml.v3 error, whose lines count within the block, into
// *Error at the file's line (all of them joined for several type errors).
func (d *Document) yamlError(err error) error {
	blockLine, _ := d.lineCol(d.start)
	// The position yaml.v3 puts in its messages, and the earlier line a
	// duplicate-key message points back to.
	yamlLine := regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	yamlAtLine := regexp.MustCompile(`at line (\d+)$`)
	msgs := []string{err.Error()}
	typeErrs := false
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs, typeErrs = te.Errors, true
	}
	var errs []error
	for _, msg := range msgs {
		msg = strings.TrimSpace(msg)
		m := yamlLine.FindStringSubmatch(msg)
		if m == nil {
			// No line: yaml.v3 leaves it out when the problem is on the
			// block's first line (line 0 counted from 0).
			errs = append(errs, d.errAt(d.start, false, fmt.Errorf("front matter: yaml: %s", strings.TrimPrefix(msg, "yaml: "))))
			continue
		}
		n, _ := strconv.Atoi(m[1])
		text := m[2]
		if !typeErrs && !yamlScannerProblem(text) {
			n++ // a parser error's line counts from 0
		}
		if a := yamlAtLine.FindStringSubmatchIndex(text); a != nil {
			k, _ := strconv.Atoi(text[a[2]:a[3]])
			text = text[:a[2]] + strconv.Itoa(blockLine+k-1)
		}
		errs = append(errs, d.errAt(d.offAt(n, 1), false, fmt.Errorf("front matter: yaml: %s", text)))
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// decodeYAML decodes the block with yaml.v3 into a yaml.Node first: the
// nodes carry the line and column of every key, which the plain map lacks.
func (d *Document) decodeYAML(block []byte) error {
	d.Fields = map[string]any{}
	var root yaml.Node
	if err := yaml.Unmarshal(block, &root); err != nil {
		return d.yamlError(err)
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil // empty front matter
	}
	top := root.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return nil // only comments, or ~
	}
	if top.Kind != yaml.MappingNode {
		return d.errAt(d.offAt(top.Line, top.Column), true,
			fmt.Errorf("front matter: yaml: want a mapping of keys to values, got %s", yamlKind(top)))
	}
	var m map[string]any
	if err := root.Decode(&m); err != nil {
		return d.yamlError(err)
	}
	d.Fields = normalize(m).(map[string]any)
	if d.Fields == nil {
		d.Fields = map[string]any{}
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if k.Tag == "!!merge" {
			continue // below, once the keys written here are known
		}
		d.setKey(k.Value, d.offAt(k.Line, k.Column))
		lk := strings.ToLower(k.Value)
		if v.Kind == yaml.ScalarNode {
			if d.raw == nil {
				d.raw = map[string]string{}
			}
			d.raw[lk] = v.Value
		}
		if lk == "cascade" && v.Kind == yaml.SequenceNode {
			d.cascade = d.cascade[:0]
			for _, e := range v.Content {
				d.cascade = append(d.cascade, d.offAt(e.Line, e.Column))
			}
		}
	}
	// Keys a merge (<<: *anchor) brings in are placed where the anchored
	// mapping writes them, unless the document writes them itself.
	for i := 0; i+1 < len(top.Content); i += 2 {
		if k := top.Content[i]; k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			d.mergeKeys(top.Content[i+1], map[*yaml.Node]bool{})
		}
	}
	return nil
}

// mergeKeys records the keys of a merged mapping (an alias, a mapping, or a
// list of them) that are not recorded yet. Each node is visited once, so
// aliases that fan out cannot make it explode.
func (d *Document) mergeKeys(n *yaml.Node, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	switch n.Kind {
	case yaml.AliasNode:
		d.mergeKeys(n.Alias, seen)
	case yaml.SequenceNode:
		for _, e := range n.Content {
			d.mergeKeys(e, seen)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if k.Tag == "!!merge" {
				d.mergeKeys(n.Content[i+1], seen)
				continue
			}
			if _, ok := d.keys[strings.ToLower(k.Value)]; !ok {
				d.setKey(k.Value, d.offAt(k.Line, k.Column))
			}
		}
	}
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a single value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "something else"
}

// normalize turns the map[any]any that yaml.v3 gives for maps with
// non-string keys into map[string]any, so every map in Fields has one type.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = normalize(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
		return v
	}
	return v
}

// decodeTOML decodes the block with BurntSushi/toml. The decoder keeps key
// positions private, so tomlKeys finds the lines of top-level keys itself.
func (d *Document) decodeTOML(block []byte) error {
	m := map[string]any{}
	if _, err := toml.Decode(string(block), &m); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			off := d.start + pe.Position.Start
			if pe.Position.Start == 0 && pe.Position.Line > 1 {
				off = d.offAt(pe.Position.Line, 1)
			}
			return d.errAt(off, true, fmt.Errorf("front matter: toml: %s", pe.Message))
		}
		return d.errAt(d.start, false, fmt.Errorf("front matter: toml: %w", err))
	}
	d.Fields = m
	for _, k := range tomlKeys(block) {
		d.setKey(k.name, d.start+k.off)
		if strings.EqualFold(k.name, "cascade") && k.array {
			d.cascade = append(d.cascade, d.start+k.off)
		}
	}
	return nil
}

// tomlKey is a top-level key found in a TOML block: a `key = value` line
// before the first table header, the first part of a dotted key there, or
// the first part of a `[table]` or `[[array]]` header.
type tomlKey struct {
	name  string
	off   int  // offset in the block
	array bool // from a [[header]]
}

// tomlKeys scans a TOML block that toml.Decode has accepted for its top-level
// keys. It is written by hand because the decoder does not export key
// positions; it only needs to skip strings, comments and values that span
// lines (arrays, inline tables, multi-line strings) to know where a line
// starts a key or a header.
func tomlKeys(block []byte) []tomlKey {
	var keys []tomlKey
	inTable := false
	depth := 0  // open [ and { inside a value
	multi := "" // the delimiter of an open multi-line string
	atLineStart := true
	for i := 0; i < len(block); {
		c := block[i]
		if multi != "" {
			if c == '\\' && multi == `"""` {
				i += 2
				continue
			}
			if bytes.HasPrefix(block[i:], []byte(multi)) {
				i += len(multi)
				// A closing delimiter may be followed by up to two more quotes
				// that belong to the string.
				for n := 0; n < 2 && i < len(block) && block[i] == multi[0]; n++ {
					i++
				}
				multi = ""
				continue
			}
			i++
			continue
		}
		switch {
		case c == '\n':
			if depth == 0 {
				atLineStart = true
			}
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#':
			for i < len(block) && block[i] != '\n' {
				i++
			}
			continue
		}
		if atLineStart && depth == 0 {
			atLineStart = false
			if c == '[' {
				array := bytes.HasPrefix(block[i:], []byte("[["))
				j := i + 1
				if array {
					j++
				}
				name, end := tomlKeyPart(block, j)
				for end < len(block) && (block[end] == ' ' || block[end] == '\t') {
					end++
				}
				// Only [[name]] itself adds an entry to name; [[name.sub]]
				// adds one inside name's last entry.
				whole := end < len(block) && block[end] == ']'
				keys = append(keys, tomlKey{name: name, off: i, array: array && whole})
				inTable = true
				// Skip the rest of the header line.
				for i < len(block) && block[i] != '\n' {
					i++
				}
				continue
			}
			if !inTable {
				name, _ := tomlKeyPart(block, i)
				keys = append(keys, tomlKey{name: name, off: i})
			}
			// Skip the key up to '='.
			for i < len(block) && block[i] != '=' && block[i] != '\n' {
				if block[i] == '"' || block[i] == '\'' {
					i = skipString(block, i)
					continue
				}
				i++
			}
			i++
			continue
		}
		switch {
		case bytes.HasPrefix(block[i:], []byte(`"""`)) || bytes.HasPrefix(block[i:], []byte(`'''`)):
			multi = string(block[i : i+3])
			i += 3
		case c == '"' || c == '\'':
			i = skipString(block, i)
		case c == '[' || c == '{':
			depth++
			i++
		case c == ']' || c == '}':
			if depth > 0 {
				depth--
			}
			i++
		default:
			i++
		}
	}
	return keys
}

// tomlKeyPart reads the first part of a (possibly dotted, possibly quoted)
// key starting at i, after optional space.
func tomlKeyPart(b []byte, i int) (string, int) {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i < len(b) && (b[i] == '"' || b[i] == '\'') {
		end := skipString(b, i)
		s := string(b[i:end])
		if b[i] == '"' {
			if u, err := strconv.Unquote(s); err == nil {
				return u, end
			}
		}
		return strings.Trim(s, `'"`), end
	}
	j := i
	for j < len(b) && (b[j] == '_' || b[j] == '-' || b[j] >= '0' && b[j] <= '9' ||
		b[j] >= 'a' && b[j] <= 'z' || b[j] >= 'A' && b[j] <= 'Z') {
		j++
	}
	return string(b[i:j]), j
}

// skipString returns the offset after the one-line string opening at i.
func skipString(b []byte, i int) int {
	q := b[i]
	for i++; i < len(b) && b[i] != '\n'; i++ {
		if b[i] == '\\' && q == '"' {
			i++
			continue
		}
		if b[i] == q {
			return i + 1
		}
	}
	return i
}

// parseJSON reads Hugo's JSON front matter: one JSON object at the start of
// the file, the content right after it. adrg/frontmatter only finds JSON
// whose braces stand alone on their lines and that is followed by a blank
// line, which Hugo does not require, so json.Decoder finds the object's end
// here instead.
func (d *Document) parseJSON(start int) error {
	d.start = start
	d.Format = "json"
	dec := json.NewDecoder(bytes.NewReader(d.src[start:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return d.jsonError(err, dec)
	}
	end := start + int(dec.InputOffset())
	body := end
	if bytes.HasPrefix(d.src[body:], []byte("\r\n")) {
		body += 2
	} else if bytes.HasPrefix(d.src[body:], []byte("\n")) {
		body++
	}
	d.Body = d.src[body:]
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return d.jsonError(err, dec)
	}
	d.Fields = m
	d.jsonKeys(raw)
	return nil
}

func (d *Document) jsonError(err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off := d.start + int(se.Offset) - 1
		return d.errAt(max(off, d.start), true, fmt.Errorf("front matter: json: %s", strings.TrimPrefix(se.Error(), "json: ")))
	case errors.As(err, &te):
		return d.errAt(d.start+int(te.Offset)-1, true, fmt.Errorf("front matter: json: %s", strings.TrimPrefix(te.Error(), "json: ")))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return d.errAt(len(d.src), true, errors.New("front matter: json: object not closed before the end of the file"))
	}
	return d.errAt(d.start, true, fmt.Errorf("front matter: json: %w", err))
}

// jsonKeys records the offsets of the top-level keys and of the entries of a
// `cascade` list, walking the tokens of an object json.Decoder accepted.
func (d *Document) jsonKeys(raw []byte) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	next := func() int { // offset of the next token in raw
		i := int(dec.InputOffset())
		for i < len(raw) && strings.IndexByte(" \t\r\n,:", raw[i]) >= 0 {
			i++
		}
		return i
	}
	if _, err := dec.Token(); err != nil { // {
		return
	}
	for dec.More() {
		off := next()
		tok, err := dec.Token()
		if err != nil {
			return
		}
		key, _ := tok.(string)
		// A key written again overrides the earlier one, as in the decoded map.
		delete(d.keys, strings.ToLower(key))
		d.setKey(key, d.start+off)
		if strings.EqualFold(key, "cascade") && next() < len(raw) && raw[next()] == '[' {
			if _, err := dec.Token(); err != nil {
				return
			}
			d.cascade = d.cascade[:0]
			for dec.More() {
				d.cascade = append(d.cascade, d.start+next())
				var v json.RawMessage
				if err := dec.Decode(&v); err != nil {
					return
				}
			}
			if _, err := dec.Token(); err != nil { // ]
				return
			}
			continue
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return
		}
	}
}
