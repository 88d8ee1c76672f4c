#!/usr/bin/env bash
# Fetch the browser-side assets of the book from the npm registry into _vendor/ (git-ignored),
# so the published HTML needs no CDN: MathJax 3 (math) and the ipywidgets embed script (widgets).
set -eo pipefail
cd "$(dirname "$0")/.."
MATHJAX=mathjax@3.2.2
WIDGETS=@jupyter-widgets/html-manager@1.0.6
if [ -f _vendor/.stamp ] && [ "$(cat _vendor/.stamp)" = "$MATHJAX $WIDGETS" ]; then exit 0; fi
rm -rf _vendor && mkdir -p _vendor/tmp
( cd _vendor/tmp && npm pack --silent "$MATHJAX" "$WIDGETS" >/dev/null 2>&1 )
tar -xzf _vendor/tmp/mathjax-*.tgz -C _vendor/tmp && mv _vendor/tmp/package/es5 _vendor/mathjax
rm -rf _vendor/tmp/package
tar -xzf _vendor/tmp/jupyter-widgets-html-manager-*.tgz -C _vendor/tmp
mkdir -p _vendor/widgets
# the non-AMD embed script, its lazily loaded chunks and fonts
cp _vendor/tmp/package/dist/embed.js _vendor/widgets/
find _vendor/tmp/package/dist -maxdepth 1 -type f \( -name '*.embed.js' -o -name '*.woff*' -o -name '*.ttf' -o -name '*.eot' -o -name '*.svg' \) -exec cp {} _vendor/widgets/ \;
rm -rf _vendor/tmp
echo "$MATHJAX $WIDGETS" > _vendor/.stamp
echo "vendored $(du -sh _vendor | cut -f1) into _vendor/"
