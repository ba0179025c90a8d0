package pipeline

// model is the site-level part of every file's indexability record (SPEC §7), read once per run
// after the step has decided every file: robots.txt as crawlers will read it once the build is in
// place, parsed once, and which sitemaps list each file, at which line. With a file's record
// (plan.Record: its verdict, directives per agent and X-Robots-Tag lines; its canonical and
// hreflang links)
// it answers everything the record holds: build acts on it (prunes the sitemaps), check reports
// its contradictions, explain prints it.
type model struct {
	robots   *robots
	sitemaps []string  // the sitemaps read, slash paths relative to the output folder, in the order read
	listed   []listing // which sitemaps list each file, sorted by file
	// llms are llms.txt and llms-full.txt as read, slash paths relative to the output folder;
	// llmsListed which of their links point at each file, sorted by file.
	llms       []string
	llmsListed []llmsListing
}

// indexability builds the model for the pass's files (decided by the step), prunes the sitemaps
// (writeFile: put in place with the run's other files) and reports the findings into rep. It
// returns the model (watch mode asks which sitemaps it read).
func (ps *pass) indexability(rep *Report) (*model, error) {
	m := &model{robots: ps.out.robots.model()}
	fs := newFindings()
	mode := pruneSitemaps
	if ps.p.Config().KeepSitemaps() {
		mode = keepSitemaps
	}
	if err := ps.sitemaps(m, fs, rep, mode); err != nil {
		return nil, err
	}
	if err := ps.llmsTxt(m, fs, rep, mode); err != nil {
		return nil, err
	}
	ps.crawlFindings(m, fs)
	ps.linkFindings(fs)
	ps.stagingFindings(fs)
	fs.report(rep)
	return m, nil
}
