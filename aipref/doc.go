// Package aipref is robotsmith's one policy for what AI may do with a site's
// content (the `ai:` key of robotsmith.yaml), and every signal that carries
// it:
//
//   - a Content-Signal line for robots.txt, as Cloudflare's Content Signals
//     Policy defines it (https://contentsignals.org/):
//     `Content-Signal: search=yes, ai-input=yes, ai-train=no`;
//   - a Content-Usage line for robots.txt and the same value as an HTTP
//     header, as the IETF AI Preferences working group's drafts define them:
//     the vocabulary draft-ietf-aipref-vocab-08 (14 September 2026: labels
//     train-ai and search, as in every revision since -05; values y and n;
//     `input` has no label there and is carried by Content-Signal alone) and
//     the attachment
//     draft-ietf-aipref-attach-05 (19 August 2026: the Content-Usage header
//     field and robots.txt rule);
//   - `noai, noimageai` robots values on every page when Meta is set
//     (advisory: no major AI vendor documents honouring them);
//   - the crawlers to disallow by user agent, from the crawler catalogue;
//   - a reservation of rights under Article 4(3) of Directive (EU) 2019/790
//     (Reservation), comment lines above the preferences in robots.txt when
//     Reserve is set, naming exactly the uses the policy says no to.
//
// Placement (`ai.placement`) chooses the signals: Both (the zero value),
// RobotsTxt, or Headers, which leaves the Content-Signal and Content-Usage
// lines out of robots.txt (site auditors such as Lighthouse report them as
// unknown directives) and sends Content-Usage as an HTTP header alone.
//
// Conflicts lists the settings that contradict each other, each naming both:
// a category of Block that disallows a crawler the catalogue also lists for
// a use the policy says yes to (block: [training] with input: yes blocks
// Google-Extended, which Google reads for grounding Gemini's answers too), a
// preference the placement writes nowhere, a reservation with nothing to
// reserve.
//
// The drafts changed their labels several times (train-genai, ai-use, bots,
// ai-output came and went); Label tells which draft defined a label, so that
// a config naming one that no version in force defines gets an error naming
// the version.
//
// Usage:
//
//	p := aipref.Policy{Train: aipref.No, Search: aipref.Yes, Input: aipref.Yes,
//		Block: []crawlers.Purpose{crawlers.Training}}
//	p.ContentSignal()          // "search=yes, ai-input=yes, ai-train=no"
//	p.ContentUsage()           // "train-ai=n, search=y"
//	p.Blocked(crawlers.Default()) // GPTBot, ClaudeBot, Google-Extended, ...
//	for _, c := range p.Conflicts(crawlers.Default()) {
//		fmt.Printf("robotsmith.yaml:%d: %s\n", c.Line, c) // block: training disallows Google-Extended ...
//	}
//	p.Reserve = true
//	p.Reservation() // ["Reservation of rights: the use of this site's content ...", ...]
//
// The package is pure: values in, strings out.
package aipref
