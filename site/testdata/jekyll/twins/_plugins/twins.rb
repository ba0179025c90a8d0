# Publishes each HTML page's Markdown beside it, as sites do for readers that want the source:
# /docs/guide/ gets /docs/guide.md, /about.html gets /about.html.md (llmstxt.org's form).
Jekyll::Hooks.register :site, :post_read do |site|
  (site.pages + site.posts.docs).each do |p|
    next unless File.extname(p.relative_path) == ".md"
    url = p.url
    p.data["twin"] = url.end_with?("/") ? (url == "/" ? "/index.md" : url.chomp("/") + ".md") : url + ".md"
  end
end

Jekyll::Hooks.register :site, :post_write do |site|
  (site.pages + site.posts.docs).each do |p|
    next unless p.data["twin"]
    dest = site.in_dest_dir(p.data["twin"].delete_prefix("/"))
    FileUtils.mkdir_p(File.dirname(dest))
    File.write(dest, p.content.to_s)
  end
end
