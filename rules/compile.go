package rules

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/robotsmith/robotsmith/problem"
)

// Compiled is one source's inputs, parsed once: a page's cascade and front matter, or the
// environment. Decide and Memo read it for every output file the source decides (a page, its pager
// pages, its other output formats, its bundle files) without parsing it again, and its problems are
// reported once, by Compile. A nil *Compiled has no inputs. It is never changed after Compile.
//
// It is two words over the inputs it was given, which it keeps (and which must not change) for
// where each value came from: what they say, parsed, is a shape that a Compiler shares between
// every source that says the same (thousands of pages with `robots: noindex`), so that a site's
// compiled sources cost a few words each.
type Compiled struct {
	shape *shape
	// where is where each of shape.inputs came from, in its order: all a source keeps of its own.
	// A site may have 100,000 sources and keep every one for the whole run, so it keeps a file and
	// a line an input (24 bytes) instead of the inputs themselves (88 bytes and what they point
	// at): the rest of each input's Source is the same for every source sharing the shape.
	where []place
	// replaced are its inherited inputs that the generator does not give the page
	// (Input.ReplacedBy), read: few sources have any, so it is a word for the others.
	replaced *[]Replaced
}

// place is the file and line an input came from (Source.File, Source.Line).
type place struct {
	file string
	line int32
}

// shape is what a source's inputs say, parsed, without where each came from.
type shape struct {
	inputs []parsed // src holds the Kind, Rule and Key; File and Line are in Compiled.where
	agents []string // the agent names it gives values to that knownAgent does not know, sorted
	key    string   // its inputs as Memo compares them: agents, tokens and kinds, no places
}

// parsedAt is the i'th parsed input of c, with where it came from.
func (c *Compiled) parsedAt(i int) parsed {
	p := c.shape.inputs[i]
	p.src.File, p.src.Line = c.where[i].file, int(c.where[i].line)
	return p
}

// Compile parses a source's inputs. Unknown or obsolete values are warnings; malformed values are
// errors (each an *Error naming its source, errors.Join-ed). A malformed value spoils only itself:
// the Compiled returned with an error holds every other input. An input that is replaced
// (Input.ReplacedBy) is parsed too, and its problems reported, but it is kept apart and never
// merged. The Compiled does not keep in.
func Compile(in []Input) (*Compiled, []Warning, error) {
	return (*Compiler)(nil).Compile(in)
}

// Compiler compiles sources like Compile, and shares one shape between the sources whose inputs
// say the same. Safe for concurrent use; a nil *Compiler shares nothing.
type Compiler struct {
	mu     sync.Mutex
	shapes map[string]*shape
	// compiled and places are the slabs the Compiled it returns, and their places, are cut from.
	// A site's sources live for the whole run: one small object each, and one more for its places,
	// were 100,000 of each that the collector marked on every cycle. A slab lives while any source
	// cut from it does: a source compiled again (watch mode) leaves its old slot there, a few words.
	compiled []Compiled
	places   []place
}

// slabSize is how many Compiled a slab holds; a places slab holds at least four times as many
// places (the inputs a source has: a cascade or two and its own front matter).
const slabSize = 256

// cut returns a Compiled cut from cc's slab, with room for n places cut from its places slab.
// cc.mu is held.
func (cc *Compiler) cut(n int) *Compiled {
	if len(cc.compiled) == cap(cc.compiled) {
		cc.compiled = make([]Compiled, 0, slabSize)
	}
	if cap(cc.places)-len(cc.places) < n {
		cc.places = make([]place, 0, max(4*slabSize, n))
	}
	cc.compiled = append(cc.compiled, Compiled{})
	c := &cc.compiled[len(cc.compiled)-1]
	at := len(cc.places)
	cc.places = cc.places[:at+n]
	c.where = cc.places[at : at+n : at+n]
	return c
}

// NewCompiler returns a Compiler that shares nothing yet.
func NewCompiler() *Compiler { return &Compiler{shapes: map[string]*shape{}} }

// Compile is Compile, with the shape shared when another source said the same.
func (cc *Compiler) Compile(in []Input) (*Compiled, []Warning, error) {
	return cc.CompileContext(context.Background(), in)
}

// CompileContext is Compile, given up once ctx ends (SIGINT, SIGTERM): it then returns ctx's error
// alone, and shares nothing. A source's inputs are parsed compileChunk at a time, ctx looked at
// before each run, so that no source, however many agents it names, holds up a stop.
func (cc *Compiler) CompileContext(ctx context.Context, in []Input) (*Compiled, []Warning, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if len(in) == 0 {
		return nil, nil, nil
	}
	var tooMany error
	if i, ok := overAgents(in); ok {
		// The run fails; the source keeps what came before the agent over the limit.
		tooMany = &Error{Source: in[i].Source, Err: errTooManyAgents, Code: problem.TooManyAgents}
		in = in[:i]
	}
	sh := &shape{}
	inputs, replaced, warns, err := parseSource(ctx, in)
	if cerr := ctx.Err(); cerr != nil {
		return nil, nil, cerr
	}
	err = errors.Join(tooMany, err)
	var key, share []byte
	for i := range inputs {
		p := &inputs[i]
		key = p.appendKey(key)
		if !knownAgent(p.agent) {
			sh.agents = append(sh.agents, p.agent)
		}
		share = binary.AppendUvarint(share, uint64(p.src.Rule))
		share = binary.AppendUvarint(share, uint64(len(p.src.Key)))
		share = append(share, p.src.Key...)
	}
	sh.inputs, sh.agents, sh.key = inputs, uniqSorted(sh.agents), string(key)
	var c *Compiled
	if cc == nil {
		c = &Compiled{where: make([]place, len(inputs))}
	} else {
		// Shared by what Memo compares and what each input's Source keeps beside its place.
		share = append(share, key...)
		cc.mu.Lock()
		defer cc.mu.Unlock() // until the shape published is done: its places are taken out below
		if have, ok := cc.shapes[string(share)]; ok {
			sh = have
		} else {
			cc.shapes[string(share)] = sh
		}
		c = cc.cut(len(inputs))
	}
	c.shape = sh
	if len(replaced) > 0 {
		c.replaced = &replaced
	}
	// Each input's file and line are the source's own; the shape keeps the rest.
	for i := range inputs {
		p := &inputs[i]
		c.where[i] = place{p.src.File, int32(p.src.Line)}
		p.src.File, p.src.Line = "", 0
	}
	return c, warns, err
}

// compileChunk is how many of a source's inputs a compile parses between looks at its context: a
// few milliseconds of work.
const compileChunk = 256

// parseSource parses a source's inputs: those it merges, and apart those that are replaced
// (Input.ReplacedBy), in order. A malformed input spoils only itself. It looks at ctx every
// compileChunk inputs and stops once ctx has ended, so that no source, however many agents it
// names, holds up a stop; the caller then drops what it returns.
func parseSource(ctx context.Context, in []Input) (inputs []parsed, replaced []Replaced, warns []Warning, err error) {
	var errs []error
	inputs = make([]parsed, 0, len(in))
	for i, x := range in {
		if i > 0 && i%compileChunk == 0 && ctx.Err() != nil {
			break
		}
		xs, sw := splitAgents(x)
		warns = append(warns, sw...)
		for _, x := range xs {
			p, ws, err := parseInput(x)
			warns = append(warns, ws...)
			switch {
			case err != nil:
				errs = append(errs, err)
			case x.ReplacedBy != nil:
				r := Replaced{Agent: p.agent, Source: p.src, By: *x.ReplacedBy}
				for _, t := range p.toks {
					r.Tokens = append(r.Tokens, t.String())
				}
				replaced = append(replaced, r)
			default:
				inputs = append(inputs, p)
			}
		}
	}
	return inputs, replaced, warns, errors.Join(errs...)
}

// MaxAgents is the most agent names one source (a page's front matter with its cascades) or the
// config gives values to, besides the well-known ones (robots, googlebot, bingbot, ...: IsAgent).
// A site names a few crawlers, and a config naming 10,000 is read (the hostile-input corpus has
// one); a page naming 100,000 would cost hundreds of MiB, a kilobyte and more each (SPEC §10:
// refused with a clear limit).
const MaxAgents = 10000

var errTooManyAgents = fmt.Errorf("more than %d agent names: robotsmith reads at most %d in one page's front matter with its cascades, and in the config (a site names a few crawlers)", MaxAgents, MaxAgents)

// overAgents is the index of the input that names the (MaxAgents+1)th distinct agent of in that
// knownAgent does not know, if one does.
func overAgents(in []Input) (int, bool) {
	if len(in) <= MaxAgents {
		return 0, false
	}
	seen := make(map[string]bool, MaxAgents+1)
	for i, x := range in {
		if a := strings.ToLower(strings.TrimSpace(x.Agent)); !seen[a] && !knownAgent(a) && a != "" {
			if len(seen) == MaxAgents {
				return i, true
			}
			seen[a] = true
		}
	}
	return 0, false
}

// Agents are the agent names the source gives values to that IsAgent does not know ("otherbot"),
// sorted.
func (c *Compiled) Agents() []string {
	if c == nil {
		return nil
	}
	return slices.Clone(c.shape.agents)
}

// appendKey writes what of p decides a Verdict: its agent, the Kind of its source (only "default or
// not" matters today, the whole Kind is cheaper to keep than to reason about), and its tokens. Every
// part is length-prefixed or self-delimiting, so two different inputs never write the same bytes.
func (p parsed) appendKey(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p.agent)))
	b = append(b, p.agent...)
	b = append(b, byte(p.src.Kind))
	b = binary.AppendUvarint(b, uint64(len(p.toks)))
	for _, t := range p.toks {
		b = append(b, byte(t.slot))
		b = binary.AppendVarint(b, t.v)
	}
	return b
}

// IsAgent reports whether a lower-case, trimmed meta name is robots-family for a page that the
// compiled sources cs decide: a name IsAgent knows, an agent the configuration names, or one that cs
// name. It is the one place a scan learns which tags to look for, so a page is scanned once and
// everything the decision names was looked for.
func (r *Resolver) IsAgent(name string, cs ...*Compiled) bool {
	if name == "" {
		return false
	}
	if knownAgent(name) {
		return true
	}
	if _, ok := slices.BinarySearch(r.agents, name); ok {
		return true
	}
	for _, c := range cs {
		if c == nil {
			continue
		}
		if _, ok := slices.BinarySearch(c.shape.agents, name); ok {
			return true
		}
	}
	return false
}

// Verdict is a Decision in the compact form kept for every file of a site: its class, what rewrite
// does to the page, and the X-Robots-Tag lines a host sends for it; no sources. Equal inputs share
// one Verdict: treat it as read-only.
type Verdict struct {
	Class      Class
	Directives Directives
	Lines      []HeaderLine
}

// Verdict is d in compact form.
func (d Decision) Verdict() *Verdict {
	return &Verdict{Class: d.Class, Directives: d.Directives(), Lines: d.HeaderLines()}
}

// Noindex reports whether agent (lower case; "robots" for every crawler) is told noindex: by the
// robots tag, or by a tag of its own. Error pages and redirect stubs carry no tag and are not
// noindex by this reading.
func (v *Verdict) Noindex(agent string) bool {
	for _, t := range v.Directives.Tags {
		if (t.Name == "robots" || t.Name == agent) && t.Noindex() {
			return true
		}
	}
	return false
}

// Noindex reports whether the tag itself says noindex. A Verdict has one tag a name, so for an agent
// whose tag is t, Verdict.Noindex(t.Name) is the robots tag's Noindex or t's: a caller going over
// every tag of a page naming thousands of agents asks t, not the Verdict, which would go over every
// tag again for each.
func (t Tag) Noindex() bool { return hasToken(t.Content, "noindex") }

// hasToken reports whether a resolved content ("noindex, follow") holds tok.
func hasToken(content, tok string) bool {
	for len(content) > 0 {
		i := 0
		for i < len(content) && content[i] != ',' {
			i++
		}
		if content[:i] == tok {
			return true
		}
		if i == len(content) {
			break
		}
		content = content[i+1:]
		for len(content) > 0 && content[0] == ' ' {
			content = content[1:]
		}
	}
	return false
}

// Memo decides like Resolver.Decide but keeps only the Verdict, once for every distinct set of
// inputs: files whose paths match the same rules and whose sources and tags say the same thing share
// one Verdict, computed once. What it keeps grows with the distinct decisions of a site, not with
// its files. Safe for concurrent use.
type Memo struct {
	r  *Resolver
	mu sync.RWMutex
	m  map[string]*Verdict
}

// Memo returns an empty Memo for r.
func (r *Resolver) Memo() *Memo { return &Memo{r: r, m: map[string]*Verdict{}} }

// Verdict decides it. Warnings and errors are those of it.Inputs (the compiled sources reported
// theirs when they were compiled), exactly as Decide gives them, and a malformed value spoils only
// itself. The result equals Decide(it) followed by Decision.Verdict.
func (m *Memo) Verdict(it Item) (*Verdict, []Warning, error) {
	var (
		local [8]parsed
		buf   [256]byte
	)
	tags, warns, err := parseInputs(local[:0], it.Inputs)
	fixed := m.r.fixed(it)
	key := append(buf[:0], byte(fixed))
	key = m.r.appendMatches(key, it)
	// The rule matches have one length for a resolver; the sources and the tags are counted and
	// each source is length-prefixed, so that no two items write the same key.
	key = binary.AppendUvarint(key, uint64(len(it.Compiled)))
	for _, c := range it.Compiled {
		if c == nil {
			key = append(key, 0)
			continue
		}
		key = binary.AppendUvarint(key, uint64(len(c.shape.key)))
		key = append(key, c.shape.key...)
	}
	key = binary.AppendUvarint(key, uint64(len(tags)))
	for _, p := range tags {
		key = p.appendKey(key)
	}
	m.mu.RLock()
	v := m.m[string(key)]
	m.mu.RUnlock()
	if v == nil {
		v = m.r.merge(it, fixed, tags).Verdict()
		m.mu.Lock()
		if old := m.m[string(key)]; old != nil {
			v = old
		} else {
			m.m[string(key)] = v
		}
		m.mu.Unlock()
	}
	return v, warns, err
}

// Len is how many distinct verdicts m holds.
func (m *Memo) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.m)
}

// appendMatches writes which rules match it, one bit each: all that its path, kind, language and
// being a file or a page decide.
func (r *Resolver) appendMatches(b []byte, it Item) []byte {
	var cur byte
	for i, cr := range r.rules {
		if cr.matches(it) {
			cur |= 1 << (i % 8)
		}
		if i%8 == 7 {
			b, cur = append(b, cur), 0
		}
	}
	if len(r.rules)%8 != 0 {
		b = append(b, cur)
	}
	return b
}
