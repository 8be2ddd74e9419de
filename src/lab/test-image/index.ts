/** The lab's test image: a raw disk that boots and reports its config drive on the serial console. */
export {
  buildTestImage,
  DEFAULT_TEST_IMAGE_MIB,
  MIN_TEST_IMAGE_MIB,
  TEST_IMAGE_MODULES,
  type BuildTestImageOptions,
  type TestImageBuild,
} from './build-test-image.js';
export {
  parseTestImageConsole,
  TEST_IMAGE_BOOTED_MARKER,
  TEST_IMAGE_DONE_MARKER,
  TEST_IMAGE_STAY_PARAM,
} from './test-image-init.js';
