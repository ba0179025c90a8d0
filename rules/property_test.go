package rules

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// tokenPool holds values as users write them, every slot represented.
var tokenPool = []string{
	"index", "NoIndex", "follow", "nofollow", "none", "all", "noarchive", "NOCACHE",
	"nosnippet", "noimageindex", "notranslate", "indexifembedded", "noai", "noimageai",
	"max-snippet:-1", "max-snippet:0", "max-snippet: 50", "max-snippet:160",
	"max-image-preview:none", "max-image-preview:standard", "Max-Image-Preview:LARGE",
	"max-video-preview:-1", "max-video-preview:0", "max-video-preview:30",
	"unavailable_after: 2027-01-31", "unavailable_after: 25 Jun 2010 15:00:00 PST",
	"unavailable_after: Friday, 25-Jun-10 15:00:00 PST", "unavailable_after:2026-12-01T08:00:00+01:00",
}

var agentPool = []string{"robots", "robots", "googlebot", "bingbot", "googlebot-news", "otherbot"}

func randInputs(rng *rand.Rand) []Input {
	n := 1 + rng.IntN(8)
	ins := make([]Input, n)
	for i := range ins {
		k := 1 + rng.IntN(3)
		vals := make([]string, k)
		for j := range vals {
			vals[j] = tokenPool[rng.IntN(len(tokenPool))]
		}
		ins[i] = Input{
			Agent: agentPool[rng.IntN(len(agentPool))],
			Value: strings.Join(vals, ", "),
			Source: Source{Kind: Kind(2 + rng.IntN(5)), File: "content/x.md", Line: 1 + rng.IntN(20),
				Key: "robots"},
		}
	}
	return ins
}

func propResolvers(t *testing.T) []*Resolver {
	t.Helper()
	var rs []*Resolver
	for _, cfg := range []Config{
		{},
		{Style: Single},
		withRules(Config{}, rule(1, []string{"/**"}, "robots", "noarchive", "googlebot", "max-snippet:80"),
			rule(2, []string{"/p/"}, "bingbot", "nosnippet, max-image-preview:standard")),
		{Defaults: []Input{}},
	} {
		r, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// kinds projects a decision onto what must not depend on input order: every
// agent's tokens with the Kind of the winning source.
func kinds(d Decision) []string {
	var out []string
	for _, a := range d.Agents {
		for _, v := range a.Values {
			out = append(out, a.Name+" "+v.Token+" "+v.Source.Kind.String())
		}
	}
	return out
}

func TestMergeOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range propResolvers(t) {
		for i := 0; i < 300; i++ {
			ins := randInputs(rng)
			shuffled := append([]Input(nil), ins...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			d1, _, err1 := r.Decide(Item{Path: "/p/", Inputs: ins})
			d2, _, err2 := r.Decide(Item{Path: "/p/", Inputs: shuffled})
			if err1 != nil || err2 != nil {
				t.Fatalf("errors: %v, %v", err1, err2)
			}
			if got, want := kinds(d2), kinds(d1); !reflect.DeepEqual(got, want) {
				t.Fatalf("inputs %q\nshuffled: got %q\nwant %q", ins, got, want)
			}
			if got, want := d2.Directives(), d1.Directives(); !reflect.DeepEqual(got, want) {
				t.Fatalf("inputs %q\ndirectives shuffled: got %+v, want %+v", ins, got, want)
			}
			if got, want := d2.HeaderLines(), d1.HeaderLines(); !reflect.DeepEqual(got, want) {
				t.Fatalf("inputs %q\nheader lines shuffled: got %q, want %q", ins, got, want)
			}
			if d1.Class != d2.Class {
				t.Fatalf("class: got %v, want %v", d2.Class, d1.Class)
			}
		}
	}
}

// randEntries gives candidates with fixed priorities, as Decide builds them.
func randEntries(rng *rand.Rand) []entry {
	var es []entry
	for seq, in := range randInputs(rng) {
		toks, _, _, err := parseValue(in.Value, false, false)
		if err != nil {
			panic(err)
		}
		for _, tk := range toks {
			es = append(es, entry{has: true, tok: tk, src: in.Source, pri: priority{kind: in.Source.Kind, seq: seq}})
		}
	}
	return es
}

func setOf(es []entry) set {
	var s set
	for _, e := range es {
		s.add(e)
	}
	return s
}

// At the level of candidates, provenance included, merging is a semilattice:
// any order, any grouping, any repetition gives the same set.
func TestMergeSemilattice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 500; i++ {
		es := randEntries(rng)
		want := setOf(es)
		perm := append([]entry(nil), es...)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if got := setOf(perm); got != want {
			t.Fatalf("permuted merge differs:\n got %v\nwant %v", got.values(), want.values())
		}
		cut := rng.IntN(len(es) + 1)
		a, b := setOf(es[:cut]), setOf(es[cut:])
		if got := a.merged(b); got != want {
			t.Fatalf("a+b differs: got %v, want %v", got.values(), want.values())
		}
		if got := b.merged(a); got != want {
			t.Fatalf("b+a differs: got %v, want %v", got.values(), want.values())
		}
		if got := want.merged(want); got != want {
			t.Fatalf("s+s differs: got %v, want %v", got.values(), want.values())
		}
	}
}

func TestMergeIdempotent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, r := range propResolvers(t) {
		for i := 0; i < 300; i++ {
			ins := randInputs(rng)
			d1, _, _ := r.Decide(Item{Path: "/p/", Inputs: ins})
			d2, _, _ := r.Decide(Item{Path: "/p/", Inputs: append(append([]Input(nil), ins...), ins...)})
			if !reflect.DeepEqual(d1, d2) {
				t.Fatalf("inputs %q: doubling changed the decision\n got %v\nwant %v", ins, d2.Agents, d1.Agents)
			}
		}
	}
}

// normalised drops what output drops: nocache under noarchive, max-snippet
// under nosnippet; and forgets sources.
func normalised(s set) [numSlots]tok {
	var out [numSlots]tok
	for i, e := range s {
		if !e.has || (slot(i) == slotNocache && s[slotNoarchive].has) || (slot(i) == slotMaxSnippet && s[slotNosnippet].has) {
			out[i] = tok{slot: -1}
			continue
		}
		out[i] = e.tok
	}
	return out
}

func TestFormatParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 500; i++ {
		s := setOf(randEntries(rng))
		text := s.content()
		toks, warns, err := ParseValue(text)
		if err != nil || len(warns) > 0 {
			t.Fatalf("ParseValue(%q): warnings %v, error %v", text, warns, err)
		}
		back, _, _, err := parseValue(strings.Join(toks, ","), false, false)
		if err != nil {
			t.Fatal(err)
		}
		s2 := setOf(func() []entry {
			var es []entry
			for _, tk := range back {
				es = append(es, entry{has: true, tok: tk})
			}
			return es
		}())
		if got, want := normalised(s2), normalised(s); got != want {
			t.Fatalf("%q: parsed back to %q", text, s2.content())
		}
		if got := s2.content(); got != text {
			t.Fatalf("format(parse(%q)) = %q", text, got)
		}
	}
	// And through the public API: a decision's content, fed back as the only
	// input, resolves to the same content.
	r, _ := New(Config{Defaults: []Input{}})
	for _, pr := range propResolvers(t) {
		for i := 0; i < 100; i++ {
			d, _, _ := pr.Decide(Item{Path: "/p/", Inputs: randInputs(rng)})
			for _, a := range d.Agents {
				d2, _, err := r.Decide(Item{Path: "/p/", Inputs: []Input{{Agent: "robots", Value: a.Content(), Source: fmSrc}}})
				if err != nil {
					t.Fatal(err)
				}
				if got := d2.Agents[0].Content(); got != a.Content() {
					t.Fatalf("%s: %q came back as %q", a.Name, a.Content(), got)
				}
			}
		}
	}
}

func FuzzParseValue(f *testing.F) {
	for _, tc := range decideCases() {
		for _, in := range tc.item.Inputs {
			f.Add(in.Value)
		}
		for _, rl := range tc.cfg.Rules {
			for _, in := range rl.Values {
				f.Add(in.Value)
			}
		}
	}
	for _, v := range tokenPool {
		f.Add(v)
	}
	for _, tc := range parseCases {
		f.Add(tc.in)
	}
	for _, tc := range sepCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, _, _ := ParseValue(s)
		// Whatever parsed is canonical: it parses back to itself, alone and
		// joined, with no warning and no error.
		joined := strings.Join(toks, ", ")
		again, warns, err := ParseValue(joined)
		if err != nil || len(warns) > 0 {
			t.Fatalf("ParseValue(%q) gave %q, which reparses with warnings %v, error %v", s, toks, warns, err)
		}
		if !reflect.DeepEqual(again, toks) && !(len(again) == 0 && len(toks) == 0) {
			t.Fatalf("ParseValue(%q) = %q; reparsed %q", s, toks, again)
		}
		// Joined by spaces, semicolons or line breaks instead, they are read the same, with the
		// warning saying to use commas (SPEC §4): none is lost to a separator.
		for _, sep := range []string{" ", ";", "\n", "; ", " \r\n"} {
			again, warns, err := ParseValue(strings.Join(toks, sep))
			if err != nil || !reflect.DeepEqual(again, toks) && !(len(again) == 0 && len(toks) == 0) {
				t.Fatalf("ParseValue(%q) = %q; joined by %q they read %q, error %v", s, toks, sep, again, err)
			}
			if len(toks) > 1 && (len(warns) != 1 || !strings.Contains(warns[0], "separate them with commas")) {
				t.Fatalf("ParseValue(%q) = %q; joined by %q they warn %q, want the warning to use commas", s, toks, sep, warns)
			}
		}
	})
}
