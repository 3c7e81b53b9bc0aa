import { loadOpenApiDocument } from '@cloud-api/spec';
import { referencePages } from '../src/reference/referencePages.js';

// VitePress dynamic route: the overview and one page per operation of the bundled spec, rendered
// at build time, so the reference is static HTML whose links and anchors work without JavaScript.
export default {
  paths() {
    return referencePages(loadOpenApiDocument()).map((page) => ({
      params: { page: page.slug },
      content: page.markdown,
    }));
  },
};
