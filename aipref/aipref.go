package aipref

import (
	"fmt"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/crawlers"
	"github.com/robotsmith/robotsmith/problem"
)

// The versions robotsmith follows. Vocab names draft-ietf-aipref-vocab
// revision 08 and Attach draft-ietf-aipref-attach revision 05, with their
// publication dates.
const (
	VocabDraft  = "draft-ietf-aipref-vocab-08"
	VocabDate   = "2026-09-14"
	AttachDraft = "draft-ietf-aipref-attach-05"
	AttachDate  = "2026-08-19"
	// SignalsPolicy names Cloudflare's Content Signals Policy, which defines
	// Content-Signal.
	SignalsPolicy    = "Cloudflare's Content Signals Policy"
	SignalsPolicyURL = "https://contentsignals.org/"
	// HeaderName is the HTTP header field that carries ContentUsage.
	HeaderName = "Content-Usage"
)

// Versions is one line naming the versions followed, for comments and
// messages.
func Versions() string {
	return fmt.Sprintf("Content-Signal as %s (%s); Content-Usage as %s (%s) and %s (%s)",
		SignalsPolicy, SignalsPolicyURL, VocabDraft, VocabDate, AttachDraft, AttachDate)
}

// Pref is one yes-or-no preference. The zero value says nothing, which is
// not the same as yes: both the Content Signals Policy and the aipref
// vocabulary read a missing key as "no preference stated".
type Pref int8

// The preferences.
const (
	Unset Pref = iota
	Yes
	No
)

// String returns "yes", "no", or "" for Unset.
func (p Pref) String() string {
	switch p {
	case Yes:
		return "yes"
	case No:
		return "no"
	}
	return ""
}

// ParsePref reads "yes" or "no" (any case, surrounding space ignored). Its error is a
// *problem.Problem of code problem.AIPreferenceInvalid, without a place: the config names it.
func ParsePref(s string) (Pref, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "yes":
		return Yes, nil
	case "no":
		return No, nil
	}
	return Unset, problem.Newf(problem.AIPreferenceInvalid, problem.Position{}, "%q is not yes or no", s)
}

// Policy is the `ai:` key: what AI may do with the site's content.
type Policy struct {
	Train  Pref // training models on the content
	Search Pref // AI search and answer engines that link back
	Input  Pref // AI answers that use the content as input (grounding, retrieval)
	// Block lists the AI purposes (crawlers.Training, AISearch, AIInput)
	// whose crawlers robots.txt disallows by user agent, each once, in the
	// order written.
	Block []crawlers.Purpose
	// Meta also writes noai, noimageai on every page.
	Meta bool
	// Placement says which signals carry the preferences: robots.txt
	// lines, the Content-Usage HTTP header, or both (the zero value).
	Placement Placement
	// Reserve writes the reservation statement (Reservation) above the
	// preferences in robots.txt.
	Reserve bool
	// Line is where `ai:` is written in the config, BlockLine where
	// `block:` is, MetaLine where `meta:` is, and so on; 0 when absent. For
	// messages and explain.
	Line, BlockLine, MetaLine        int
	TrainLine, SearchLine, InputLine int
	PlacementLine, ReserveLine       int
}

// Placement is the value of `ai.placement`: where the preferences are
// written. Its zero value is Both.
type Placement int8

// The placements.
const (
	// Both writes the Content-Signal and Content-Usage lines in robots.txt
	// and sends Content-Usage as an HTTP header.
	Both Placement = iota
	// RobotsTxt writes the robots.txt lines only; no header.
	RobotsTxt
	// Headers sends the Content-Usage HTTP header only: robots.txt gets no
	// Content-Signal or Content-Usage line, which site auditors that know
	// neither report as unknown directives (Lighthouse's robots-txt audit
	// fails on both before 13.0.2 and on Content-Usage in every release).
	// Content-Signal has no header form, and input no Content-Usage label,
	// so a stated input preference is written nowhere (a Conflict of kind
	// Unsaid).
	Headers
)

// Placements lists the values `placement:` takes.
const Placements = "both, robots.txt, headers"

// String returns the word the config writes: "both", "robots.txt" or "headers".
func (pl Placement) String() string {
	switch pl {
	case Both:
		return "both"
	case RobotsTxt:
		return "robots.txt"
	case Headers:
		return "headers"
	}
	return fmt.Sprintf("Placement(%d)", int(pl))
}

// ParsePlacement reads a value of `placement:` (any case, surrounding
// space ignored).
func ParsePlacement(s string) (Placement, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "both":
		return Both, nil
	case "robots.txt":
		return RobotsTxt, nil
	case "headers":
		return Headers, nil
	}
	return Both, fmt.Errorf("%q is not a placement (known: %s)", s, Placements)
}

// InRobotsTxt reports whether robots.txt gets the Content-Signal and
// Content-Usage lines: the policy states a preference and the placement
// is not Headers.
func (p Policy) InRobotsTxt() bool { return p.States() && p.Placement != Headers }

// InHeaders reports whether pages get the Content-Usage HTTP header: the
// policy states a preference that has a label in the vocabulary
// (ContentUsage is not empty) and the placement is not RobotsTxt.
func (p Policy) InHeaders() bool { return p.ContentUsage() != "" && p.Placement != RobotsTxt }

// HeaderUsage is the Content-Usage header every host sends for every path: ContentUsage where the
// placement lets headers carry it (InHeaders), "" where it does not. Each host's file, explain and
// the indexability record take it from here, so that they say the same.
func (p Policy) HeaderUsage() string {
	if !p.InHeaders() {
		return ""
	}
	return p.ContentUsage()
}

// Pref returns the preference the policy states for an AI purpose
// (Train for crawlers.Training, Search for AISearch, Input for AIInput),
// and Unset for any other purpose.
func (p Policy) Pref(of crawlers.Purpose) Pref {
	switch of {
	case crawlers.Training:
		return p.Train
	case crawlers.AISearch:
		return p.Search
	case crawlers.AIInput:
		return p.Input
	}
	return Unset
}

// key is the key of `ai:` that states the preference for an AI purpose.
func key(of crawlers.Purpose) string {
	switch of {
	case crawlers.Training:
		return "train"
	case crawlers.AISearch:
		return "search"
	case crawlers.AIInput:
		return "input"
	}
	return of.String()
}

// line is the config line of the key that states the preference for an AI purpose.
func (p Policy) line(of crawlers.Purpose) int {
	switch of {
	case crawlers.Training:
		return p.TrainLine
	case crawlers.AISearch:
		return p.SearchLine
	case crawlers.AIInput:
		return p.InputLine
	}
	return 0
}

// States reports whether the policy states any preference, that is,
// whether robots.txt gets Content-Signal and Content-Usage lines.
func (p Policy) States() bool { return p.Train != Unset || p.Search != Unset || p.Input != Unset }

// ContentSignal is the value of the robots.txt Content-Signal line as the
// Content Signals Policy writes it ("search=yes, ai-input=yes,
// ai-train=no"), with the preferences the policy leaves unset left out; ""
// when it states none.
func (p Policy) ContentSignal() string {
	var parts []string
	for _, kv := range []struct {
		key string
		v   Pref
	}{{"search", p.Search}, {"ai-input", p.Input}, {"ai-train", p.Train}} {
		if kv.v != Unset {
			parts = append(parts, kv.key+"="+kv.v.String())
		}
	}
	return strings.Join(parts, ", ")
}

// ContentUsage is the statement of preference of VocabDraft, serialised as
// its exemplary format (an RFC 9651 Dictionary of tokens y and n, in the
// vocabulary's label order): "train-ai=n, search=y". It is the value of both
// the robots.txt Content-Usage rule and the Content-Usage HTTP header of
// AttachDraft; "" when the policy states nothing.
//
// Train is AI Model Training (train-ai), Search is Search. Input has no
// label in the vocabulary in force (AI Use, ai-use, was a label of -02 only;
// the inference categories proposed since are not in a published revision),
// so it is carried by Content-Signal's ai-input alone.
func (p Policy) ContentUsage() string {
	var parts []string
	for _, kv := range []struct {
		label string
		v     Pref
	}{{"train-ai", p.Train}, {"search", p.Search}} {
		switch kv.v {
		case Yes:
			parts = append(parts, kv.label+"=y")
		case No:
			parts = append(parts, kv.label+"=n")
		}
	}
	return strings.Join(parts, ", ")
}

// MetaValues are the robots values Meta asks for on every page; nil without Meta.
func (p Policy) MetaValues() []string {
	if !p.Meta {
		return nil
	}
	return []string{"noai", "noimageai"}
}

// Blocked returns the catalogue's crawlers that Block disallows, each once,
// in catalogue order.
func (p Policy) Blocked(c *crawlers.Catalogue) []crawlers.Crawler {
	if len(p.Block) == 0 {
		return nil
	}
	return c.Block(p.Block...)
}

// Categories lists the values `block:` takes; "all-ai" is the three AI
// purposes together.
const Categories = "training, ai-search, ai-input, all-ai"

// ParseCategory reads one value of `block:` into the AI purposes it names.
// A value that is an aipref label or a Content Signals name (train-genai,
// ai-train) gets an error saying what it is. The error is a *problem.Problem
// of code problem.AICategoryUnknown, without a place: the config names it.
func ParseCategory(s string) ([]crawlers.Purpose, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "all-ai" {
		return []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput}, nil
	}
	if p, err := crawlers.ParsePurpose(v); err == nil && p.IsAI() {
		return []crawlers.Purpose{p}, nil
	}
	msg := fmt.Sprintf("%q is not a crawler category (known: %s)", s, Categories)
	if what, ok := Label(v); ok {
		msg += "; " + what
	}
	return nil, problem.New(problem.AICategoryUnknown, problem.Position{}, msg)
}

// AddBlock appends the purposes of a `block:` value that are not there yet.
func (p *Policy) AddBlock(ps ...crawlers.Purpose) {
	for _, x := range ps {
		if !slices.Contains(p.Block, x) {
			p.Block = append(p.Block, x)
		}
	}
}

// Label says what an AI preference label is, for messages about a config
// that writes one: a label of the vocabulary in force (and which key of
// `ai:` writes it), a label an earlier draft defined and no version in
// force does, or a Content Signals name. ok is false for anything else.
func Label(s string) (what string, ok bool) {
	switch s {
	case "train-ai":
		return fmt.Sprintf("train-ai is the %s label that train: writes", VocabDraft), true
	case "ai-train":
		return "ai-train is the Content-Signal name that train: writes", true
	case "ai-input":
		return "ai-input is the Content-Signal name that input: writes", true
	}
	if drafts, ok := droppedLabel(s); ok {
		return fmt.Sprintf("%q was a label of draft-ietf-aipref-vocab %s and no version in force defines it (robotsmith follows %s, whose labels are train-ai and search)",
			s, drafts, VocabDraft), true
	}
	return "", false
}

// droppedLabel tells which revisions of draft-ietf-aipref-vocab defined a
// label that the revision robotsmith follows does not (read from the
// drafts' label tables, revisions 01 to 08).
func droppedLabel(s string) (string, bool) {
	switch s {
	case "tdm", "ai", "genai", "inference":
		return "-01 (June 2025)", true
	case "all", "ai-use":
		return "-02 (July 2025)", true
	case "train-genai":
		return "-02 and -03 (July to September 2025)", true
	case "bots":
		return "-03 and -04 (September to October 2025)", true
	case "ai-output":
		return "-04 (October 2025)", true
	}
	return "", false
}

// Combine joins statements of preference as VocabDraft combines them when several apply to the
// same content: for each label, a "n" in any of them wins over "y" (the most restrictive), and a
// label only one of them states keeps its value. Within one statement a repeated label keeps its
// last value (an RFC 9651 Dictionary). Labels are written in the order they first appear, as
// "label=y" or "label=n". A member that is not "label=y" or "label=n" (parameters dropped) is left
// out, as the vocabulary tells a reader to ignore what it does not understand. Used to read a
// robots.txt: it never validates what robotsmith writes.
func Combine(statements ...string) string {
	var labels []string
	vals := map[string]byte{}
	for _, s := range statements {
		own := map[string]byte{}
		var order []string
		for _, m := range strings.Split(s, ",") {
			m, _, _ = strings.Cut(m, ";") // parameters
			k, v, ok := strings.Cut(strings.TrimSpace(m), "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || (v != "y" && v != "n") {
				continue
			}
			if _, seen := own[k]; !seen {
				order = append(order, k)
			}
			own[k] = v[0]
		}
		for _, k := range order {
			old, seen := vals[k]
			switch {
			case !seen:
				labels = append(labels, k)
				vals[k] = own[k]
			case old == 'y':
				vals[k] = own[k]
			}
		}
	}
	parts := make([]string, len(labels))
	for i, k := range labels {
		parts[i] = k + "=" + string(vals[k])
	}
	return strings.Join(parts, ", ")
}
