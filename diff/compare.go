package diff

import (
	"io"
	"slices"
	"strings"

	"github.com/robotsmith/robotsmith/indexability"
)

// Aspect is what about a URL changed. Its names are part of the JSON output.
type Aspect string

// The aspects, in the order a change lists them.
const (
	Added      Aspect = "added"        // the URL is in NEW only
	Removed    Aspect = "removed"      // the URL is in OLD only
	Class      Aspect = "class"        // what it serves: a page became an error page, a redirect, ...
	Index      Aspect = "index"        // index <-> noindex, for a crawler
	Follow     Aspect = "follow"       // follow <-> nofollow
	Snippet    Aspect = "snippet"      // nosnippet, max-snippet, max-image-preview, max-video-preview
	Directives Aspect = "directives"   // noarchive, noimageindex, notranslate, unavailable_after, ...
	AIMeta     Aspect = "ai"           // noai, noimageai, and the Content-Usage and Content-Signal preferences
	Sitemap    Aspect = "sitemap"      // listed in a sitemap, or not
	RobotsTxt  Aspect = "robots.txt"   // whether robots.txt lets a crawler or an AI category fetch it
	Canonical  Aspect = "canonical"    // where its canonical link points, or what that URL now is
	XRobotsTag Aspect = "x-robots-tag" // the X-Robots-Tag lines a host sends
)

// aspects is every aspect, in order.
var aspects = [...]Aspect{Added, Removed, Class, Index, Follow, Snippet, Directives, AIMeta, Sitemap, RobotsTxt, Canonical, XRobotsTag}

// Item is one change of one aspect of a URL: Old and New as a person reads them ("index",
// "noindex"; "may crawl"; "" for none), and where the new value comes from.
type Item struct {
	Aspect Aspect `json:"aspect"`
	// Who is the crawler (robots: every crawler), the AI category, or the preference the item is
	// about; "" when the aspect has none.
	Who    string              `json:"who"`
	Old    string              `json:"old"`
	New    string              `json:"new"`
	Source indexability.Source `json:"source"`
}

// Change is every change of one URL.
type Change struct {
	URL    string `json:"url"`
	File   string `json:"file"`   // NEW's output file (OLD's for a removed URL)
	Source string `json:"source"` // NEW's source page (OLD's for a removed URL)
	Home   bool   `json:"home"`
	// Left are the search engines (googlebot, bingbot) whose index the URL leaves, and Why the
	// reason NEW gives the first of them (noindex, robots.txt, canonical, class, removed); Joined
	// those whose index it enters.
	Left      []string            `json:"left_index"`
	Why       string              `json:"why"`
	WhySource indexability.Source `json:"why_source"` // the source of that reason; empty for class and removed
	Joined    []string            `json:"joined_index"`
	Items     []Item              `json:"items"`

	robotsBlocked bool   // robots.txt newly keeps a search crawler from it while its directives let it index it
	whyWhat       string // for Why canonical, the target; for class, the class: Summary's cause
}

// LeavesIndex reports whether the URL leaves a search engine's index.
func (c *Change) LeavesIndex() bool { return len(c.Left) > 0 }

// Compare reads OLD and NEW side by side in URL order, calls visit for every URL that changed, in URL
// order, and returns the counts. It holds a few records of each side at a time, so its memory does
// not grow with the site; each side is decoded on a goroutine of its own, decoding being most of a
// comparison's work. The first error of either reader (a record that is not whole, a URL out of
// order) or of visit ends it.
func Compare(old, new *indexability.Reader, visit func(*Change) error) (*Summary, error) {
	ra, rb := readAhead(old), readAhead(new)
	defer ra.close()
	defer rb.close()
	s := newSummary()
	a, err := ra.next()
	if err != nil {
		return nil, err
	}
	b, err := rb.next()
	if err != nil {
		return nil, err
	}
	for a != nil || b != nil {
		var c *Change
		switch {
		case b == nil || (a != nil && a.URL < b.URL):
			s.countOld(a)
			c = removed(a)
			if a, err = ra.next(); err != nil {
				return nil, err
			}
		case a == nil || b.URL < a.URL:
			s.countNew(b)
			c = added(b)
			if b, err = rb.next(); err != nil {
				return nil, err
			}
		default:
			s.countOld(a)
			s.countNew(b)
			c = compare(a, b, s)
			if a, err = ra.next(); err != nil {
				return nil, err
			}
			if b, err = rb.next(); err != nil {
				return nil, err
			}
		}
		if c == nil {
			continue
		}
		s.add(c)
		if visit != nil {
			if err := visit(c); err != nil {
				return nil, err
			}
		}
	}
	s.finish()
	return s, nil
}

// ahead reads a record file's records on a goroutine of its own, a batch at a time, a few batches
// ahead of the comparison.
type ahead struct {
	ch   chan batch
	stop chan struct{}
	cur  []*indexability.Record
	err  error // the error that ended the batches; io.EOF at the end
}

type batch struct {
	recs []*indexability.Record
	err  error
}

// The records of a batch, and the batches read ahead.
const (
	batchSize  = 64
	batchAhead = 4
)

func readAhead(r *indexability.Reader) *ahead {
	a := &ahead{ch: make(chan batch, batchAhead), stop: make(chan struct{})}
	go func() {
		defer close(a.ch)
		for {
			b := batch{recs: make([]*indexability.Record, 0, batchSize)}
			for len(b.recs) < batchSize {
				rec, err := r.Next()
				if err != nil {
					b.err = err
					break
				}
				b.recs = append(b.recs, rec)
			}
			select {
			case a.ch <- b:
			case <-a.stop:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return a
}

// next is the next record, or nil at the end.
func (a *ahead) next() (*indexability.Record, error) {
	for len(a.cur) == 0 {
		if a.err == io.EOF {
			return nil, nil
		}
		if a.err != nil {
			return nil, a.err
		}
		b, ok := <-a.ch
		if !ok {
			return nil, nil
		}
		a.cur, a.err = b.recs, b.err
	}
	rec := a.cur[0]
	a.cur = a.cur[1:]
	return rec, nil
}

// close stops the goroutine and waits for it.
func (a *ahead) close() {
	close(a.stop)
	for range a.ch {
	}
}

func newChange(r *indexability.Record, home bool) *Change {
	return &Change{URL: r.URL, File: r.File, Source: r.Source, Home: home, Left: []string{}, Joined: []string{}}
}

func added(b *indexability.Record) *Change {
	c := newChange(b, b.IsHome())
	for _, e := range indexability.SearchEngines {
		if b.Index(e) == indexability.InIndex {
			c.Joined = append(c.Joined, e)
		}
	}
	c.Items = []Item{{Aspect: Added, New: describe(b), Source: indexability.Source{Text: b.Source, File: b.Source}}}
	return c
}

func removed(a *indexability.Record) *Change {
	c := newChange(a, a.IsHome())
	for _, e := range indexability.SearchEngines {
		if a.Index(e) == indexability.InIndex {
			c.Left = append(c.Left, e)
		}
	}
	if len(c.Left) > 0 {
		c.Why = string(Removed)
	}
	c.Items = []Item{{Aspect: Removed, Old: describe(a)}}
	return c
}

// describe is a URL in a few words: "public, in the index", "noindex", "file, in the index".
func describe(r *indexability.Record) string {
	s := string(r.Class)
	if r.Indexed() {
		s += ", in the index"
	}
	return s
}

// compare is the change from a to b (the same URL), or nil when nothing a crawler is told differs.
// Sources are not compared: a rule moved down robotsmith.yaml changes no page.
func compare(a, b *indexability.Record, s *Summary) *Change {
	c := newChange(b, a.IsHome() || b.IsHome())
	for _, e := range indexability.SearchEngines {
		was, is := a.Index(e), b.Index(e)
		switch {
		case was == indexability.InIndex && is != indexability.InIndex:
			if len(c.Left) == 0 {
				c.Why, c.WhySource = string(is), whySource(b, e, is)
				switch is {
				case indexability.OutCanonical:
					c.whyWhat = canonical(b)
				case indexability.OutClass:
					c.whyWhat = string(b.Class)
				}
			}
			c.Left = append(c.Left, e)
		case was != indexability.InIndex && is == indexability.InIndex:
			c.Joined = append(c.Joined, e)
		}
	}
	if a.Class != b.Class && !(isPage(a.Class) && isPage(b.Class)) {
		// Public <-> noindex is the robots index item's; any other change of class is its own.
		c.Items = append(c.Items, Item{Aspect: Class, Old: string(a.Class), New: string(b.Class)})
	}
	c.Items = directiveItems(c.Items, a, b)
	if a.Listed() != b.Listed() {
		it := Item{Aspect: Sitemap, Old: listed(a), New: listed(b)}
		if b.Listed() {
			it.Source = b.Sitemaps[0]
		} else if b.Noindex("robots") {
			it.Source = b.SourceOf("robots", "noindex") // build pruned it for that
		}
		c.Items = append(c.Items, it)
	}
	for _, who := range indexability.Crawlers {
		was, is := *a.RobotsTxt.Of(who), *b.RobotsTxt.Of(who)
		if was.String() == is.String() {
			continue // the same verdict: a category the catalogue grew keeps its "may crawl"
		}
		c.Items = append(c.Items, Item{Aspect: RobotsTxt, Who: who, Old: was.String(), New: is.String(), Source: is.Source})
		s.robotsTxt(who, was, is, b.URL)
		if is.Blocked > was.Blocked && (who == indexability.Googlebot || who == indexability.Bingbot) &&
			b.Index(who) == indexability.OutRobotsTxt {
			c.robotsBlocked = true // its class and directives would let the crawler index it
		}
	}
	// A self-canonical's status is the page's own: a page made noindex is said once, by its
	// directives.
	self := a.Canonical.URL == a.URL && b.Canonical.URL == b.URL
	if a.Canonical.URL != b.Canonical.URL || a.Canonical.Status != b.Canonical.Status && !self {
		c.Items = append(c.Items, Item{Aspect: Canonical, Old: canonical(a), New: canonical(b), Source: b.Canonical.Source})
	}
	for _, p := range []struct {
		who    string
		va, vb indexability.Value
	}{
		{"Content-Usage header", a.AI.Header, b.AI.Header},
		{"robots.txt Content-Usage", a.AI.ContentUsage, b.AI.ContentUsage},
		{"robots.txt Content-Signal", a.AI.ContentSignal, b.AI.ContentSignal},
	} {
		if p.va.Value != p.vb.Value {
			c.Items = append(c.Items, Item{Aspect: AIMeta, Who: p.who, Old: p.va.Value, New: p.vb.Value, Source: p.vb.Source})
		}
	}
	if ha, hb := headerLines(a), headerLines(b); ha != hb {
		it := Item{Aspect: XRobotsTag, Old: ha, New: hb}
		if len(b.XRobotsTag) > 0 {
			it.Source = b.XRobotsTag[0].Source
		}
		c.Items = append(c.Items, it)
	}
	if len(c.Items) == 0 && len(c.Left) == 0 && len(c.Joined) == 0 {
		return nil
	}
	slices.SortStableFunc(c.Items, func(x, y Item) int { return slices.Index(aspects[:], x.Aspect) - slices.Index(aspects[:], y.Aspect) })
	return c
}

// whySource is the source of the reason why the search engine does not index b.
func whySource(b *indexability.Record, engine string, why indexability.Why) indexability.Source {
	switch why {
	case indexability.OutNoindex:
		return b.SourceOf(engine, "noindex")
	case indexability.OutRobotsTxt:
		return b.RobotsTxt.Of(engine).Source
	case indexability.OutCanonical:
		return b.Canonical.Source
	}
	return indexability.Source{}
}

// isPage reports whether c is an HTML page's class that its robots directives decide.
func isPage(c indexability.Class) bool { return c == indexability.Public || c == indexability.Noindex }

func listed(r *indexability.Record) string {
	if r.Listed() {
		return "listed"
	}
	return "not listed"
}

// canonical is "/a/ (self)", "/b/ (noindex)", "" for none.
func canonical(r *indexability.Record) string {
	switch {
	case r.Canonical.URL == "" && r.Canonical.Status == "":
		return ""
	case r.Canonical.URL == "":
		return strings.TrimSpace(r.Canonical.Href + " (" + r.Canonical.Status + ")")
	case r.Canonical.URL == r.URL:
		return r.Canonical.URL + " (self)"
	}
	return r.Canonical.URL + " (" + r.Canonical.Status + ")"
}

func headerLines(r *indexability.Record) string {
	var vs []string
	for _, v := range r.XRobotsTag {
		vs = append(vs, v.Value)
	}
	return strings.Join(vs, "; ")
}

// directiveItems appends the changes of a's and b's directives, per crawler and per aspect: for
// robots (every crawler), then for each other crawler either side lists, where its change is not
// robots's own (a page made noindex for every crawler is one item, not three).
func directiveItems(items []Item, a, b *indexability.Record) []Item {
	if !hasDirectives(a) || !hasDirectives(b) {
		return items // an error page or a redirect has none to compare; its class says it
	}
	if slices.EqualFunc(a.Agents, b.Agents, func(x, y indexability.Agent) bool {
		return x.Name == y.Name && x.Directives == y.Directives
	}) {
		return items // most URLs: the same directives, written the same
	}
	agents := []string{"robots"}
	for _, r := range []*indexability.Record{a, b} {
		for _, ag := range r.Agents {
			if !slices.Contains(agents, ag.Name) {
				agents = append(agents, ag.Name)
			}
		}
	}
	robotsA, robotsB := groups(a.Directives("robots")), groups(b.Directives("robots"))
	for _, name := range agents {
		ga, gb := groups(a.Directives(name)), groups(b.Directives(name))
		for i, asp := range directiveAspects {
			if ga[i] == gb[i] || (name != "robots" && ga[i] == robotsA[i] && gb[i] == robotsB[i]) {
				continue
			}
			it := Item{Aspect: asp, Who: name, Old: ga[i], New: gb[i]}
			// The source of the new value: of its first directive that is new.
			old := indexability.Tokens(ga[i])
			for _, t := range indexability.Tokens(gb[i]) {
				if !slices.Contains(old, t) {
					it.Source = b.SourceOf(name, t)
					break
				}
			}
			if it.Source.Text == "" && gb[i] != "" {
				it.Source = b.SourceOf(name, indexability.Tokens(gb[i])[0])
			}
			items = append(items, it)
		}
	}
	return items
}

func hasDirectives(r *indexability.Record) bool {
	return r.Class != indexability.ErrorPage && r.Class != indexability.Redirect
}

// directiveAspects are the aspects a directive belongs to, in the order groups returns them.
var directiveAspects = [...]Aspect{Index, Follow, Snippet, Directives, AIMeta}

// groups splits directives by aspect, each group's directives sorted and joined with ", ", so that
// two lists of the same directives in another order compare equal.
func groups(directives string) [len(directiveAspects)]string {
	var g [len(directiveAspects)][]string
	for _, t := range indexability.Tokens(directives) {
		name, _, _ := strings.Cut(t, ":")
		i := slices.Index(directiveAspects[:], aspectOf(name))
		g[i] = append(g[i], t)
	}
	var out [len(directiveAspects)]string
	for i := range g {
		slices.Sort(g[i])
		out[i] = strings.Join(g[i], ", ")
	}
	return out
}

// aspectOf is the aspect a directive's name belongs to.
func aspectOf(name string) Aspect {
	switch name {
	case "index", "noindex":
		return Index
	case "follow", "nofollow":
		return Follow
	case "nosnippet", "max-snippet", "max-image-preview", "max-video-preview":
		return Snippet
	case "noai", "noimageai":
		return AIMeta
	}
	return Directives
}
