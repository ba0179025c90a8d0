# Copied into each fixture's _plugins by jekyll_integration_test.go. After Jekyll writes the site,
# it records every page and document: its source file, the file Jekyll wrote (or nothing), and the
# Markdown twin a fixture's own plugin published beside it (data["twin"], a URL path).
require "json"

Jekyll::Hooks.register :site, :post_write do |site|
  out = ENV["ROBOTSMITH_TRUTH"]
  next if out.nil? || out.empty?

  rows = []
  site.pages.each do |p|
    src = p.is_a?(Jekyll::PageWithoutAFile) ? nil : File.join(site.source, p.relative_path)
    # jekyll-paginate's pages 2..N are copies of the template page (same source file).
    kind = p.respond_to?(:pager) && p.pager && p.pager.page > 1 ? "pager" : "page"
    rows << { "source" => src, "dest" => p.destination(site.dest), "kind" => kind, "twin" => p.data["twin"] }
  end
  site.collections.each_value do |c|
    c.docs.each do |d|
      rows << { "source" => d.path, "dest" => (d.write? ? d.destination(site.dest) : nil), "kind" => c.label, "twin" => d.data["twin"] }
    end
  end
  File.write(out, JSON.pretty_generate({ "source" => site.source, "dest" => site.dest, "entries" => rows }))
end
