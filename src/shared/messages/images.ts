/**
 * The error messages raised in `src/images/` (see `index.ts` for how a message reads and is raised). Each
 * is an `ImageError` with a reason (`images/errors.ts`); its code says whose fault it is: InvalidParameterValue
 * for what the caller asked for, DriverOperationError for a failure while acting on a valid request.
 */
import type { MessageTable } from './table.js';

export const IMAGES_MESSAGES = {
  // source.ts
  imageSourceRequired: { code: 'InvalidParameterValue', text: 'An image source URL is required.' },
  imageUrlInvalid: { code: 'InvalidParameterValue', text: 'Image source "{url}" is not a URL; use http://, https:// or file://.' },
  imageUrlHasCredentials: {
    code: 'InvalidParameterValue',
    text: 'Image source {url} carries credentials in the URL, which Ingot does not send; serve the image without them.',
  },
  imageUrlSchemeUnsupported: { code: 'InvalidParameterValue', text: 'Image source {url} uses {scheme}://, which Ingot cannot fetch; use http://, https:// or file://.' },
  imageFileUrlRemote: { code: 'InvalidParameterValue', text: 'Image source {url} names host "{host}"; file:// URLs must be local (file:///path).' },
  imageFileBlocked: { code: 'InvalidParameterValue', text: 'Image source {url} is refused: files under {dir} may never be used as images.' },
  imageFileUrlsDisabled: {
    code: 'InvalidParameterValue',
    text: 'Image source {url} is refused: file:// images are disabled (images.file_url_allowed_paths is empty).',
  },
  imageFileOutsideAllowed: { code: 'InvalidParameterValue', text: 'Image source {url} is refused: {path} is outside images.file_url_allowed_paths ({allowed}).' },
  imageFileNotRegular: { code: 'InvalidParameterValue', text: 'Image source {url} is not a regular file.' },
  imageFileMissing: { code: 'DriverOperationError', text: 'Image file {path} (from {url}) does not exist.' },
  imageFileUnreadable: { code: 'DriverOperationError', text: 'Cannot read image file {path}: {reason}' },

  // checksum.ts, digest.ts
  checksumEmpty: { code: 'InvalidParameterValue', text: 'The image checksum is empty.' },
  checksumIsUrl: { code: 'InvalidParameterValue', text: 'The checksum {checksum} is a URL; resolve it with resolveChecksum().' },
  checksumNotHex: {
    code: 'InvalidParameterValue',
    text: 'The image checksum "{checksum}" is not a hexadecimal digest (expected hex, algo:hex or a checksum file URL).',
  },
  checksumAlgorithmUnsupported: { code: 'InvalidParameterValue', text: 'Checksum "{checksum}": unsupported checksum algorithm "{algo}"; use sha256, sha512 (or md5 where allowed).' },
  checksumLengthWrong: { code: 'InvalidParameterValue', text: 'The {algo} checksum "{hex}" has {digits} hex digits; {algo} has {expected}.' },
  checksumLengthUnknown: {
    code: 'InvalidParameterValue',
    text: 'The image checksum "{hex}" has {digits} hex digits, which fits no algorithm (sha256: 64, sha512: 128); name it as algo:hex.',
  },
  checksumMd5Refused: {
    code: 'InvalidParameterValue',
    text: 'The image checksum {hex} is an MD5 checksum, which this conductor refuses; give a sha256 or sha512 checksum, or set images.allow_md5_checksum (INGOT_IMAGES_ALLOW_MD5_CHECKSUM=true) to accept MD5. If the value is not MD5, name its algorithm as algo:hex.',
  },
  checksumFromFileInvalid: { code: 'InvalidParameterValue', text: '{reason} (from checksum file {url})' },
  checksumNotComputed: { code: 'DriverOperationError', text: 'No {algo} checksum was computed for {url}.' },
  checksumMismatch: { code: 'DriverOperationError', text: 'Checksum mismatch for {url}: expected {algo} {expected}, computed {actual}.' },

  // download.ts
  downloadAborted: { code: 'DriverOperationError', text: 'Download of {url} was aborted.' },
  downloadNoAnswer: { code: 'DriverOperationError', text: 'Download of {url} timed out waiting for {host} to answer.' },
  downloadStalled: { code: 'DriverOperationError', text: 'Download of {url} timed out while receiving the body.' },
  downloadNetworkError: { code: 'DriverOperationError', text: 'Cannot download {url}: {reason} ({code}).' },
  downloadFailed: { code: 'DriverOperationError', text: 'Cannot download {url}: {reason}.' },
  downloadNotFound: { code: 'DriverOperationError', text: 'Cannot download {url}: HTTP {status}; check the URL.' },
  downloadNotFoundRedirected: { code: 'DriverOperationError', text: 'Cannot download {url} (redirected to {final}): HTTP {status}; check the URL.' },
  downloadHttpStatus: { code: 'DriverOperationError', text: 'Cannot download {url}: HTTP {status} instead of 200.' },
  downloadHttpStatusRedirected: { code: 'DriverOperationError', text: 'Cannot download {url} (redirected to {final}): HTTP {status} instead of 200.' },
  downloadRedirectScheme: { code: 'InvalidParameterValue', text: 'Download of {url} was redirected ({status}) to a {scheme}: URL; only http(s) redirects are followed.' },
  downloadRedirectInvalid: { code: 'InvalidParameterValue', text: 'Download of {url} was redirected ({status}) to "{location}", which is not a URL.' },
  downloadRedirectCredentials: { code: 'InvalidParameterValue', text: 'Download of {url} was redirected ({status}) to a URL with credentials, which Ingot does not follow.' },
  downloadTooManyRedirects: { code: 'InvalidParameterValue', text: 'Download of {url} was redirected more than {max} times; give the image\'s final URL.' },
  downloadOverLimit: { code: 'DriverOperationError', text: 'Download of {url} exceeds the limit of {limit}.' },
  downloadTruncated: { code: 'DriverOperationError', text: 'Download of {url} ended after {bytes} of {declared} bytes.' },
  downloadTruncatedBy: { code: 'DriverOperationError', text: 'Download of {url} ended after {bytes} of {declared} bytes: {reason}.' },
  imageOverLimit: { code: 'DriverOperationError', text: 'Image {url} is {size}, more than the limit of {limit}.' },
  resourceOverLimit: { code: 'DriverOperationError', text: '{url} is {size}, more than the limit of {limit}.' },
  imageCopyAborted: { code: 'DriverOperationError', text: 'Copy of {url} was aborted.' },
  resourceReadAborted: { code: 'DriverOperationError', text: 'Reading {url} was aborted.' },

  // flights.ts, cache.ts
  imageFetchAborted: { code: 'DriverOperationError', text: 'Fetching image {url} was aborted.' },
  nodeImageDirInvalid: { code: 'InvalidParameterValue', text: '"{node}" cannot name a node\'s image directory.' },
  imageCacheNoSpaceDownload: {
    code: 'DriverOperationError',
    text: 'Not enough disk space in {dir} to download {url}: it needs {needed}, {free} are free after evicting unused images; nothing was written.',
  },
  imageOverCacheLimit: {
    code: 'DriverOperationError',
    text: 'Image {url} is larger than the whole image cache ({limit}, images.master_cache_size_mib); raise the limit or use a smaller image.',
  },
  imageCacheNoSpace: {
    code: 'DriverOperationError',
    text: 'Not enough disk space in {dir} to convert {url}: it needs {needed}, {free} are free after evicting unused images.',
  },

  // convert.ts
  qemuImgMissing: { code: 'DriverOperationError', text: '{command} was not found (PATH={path}); install qemu-utils (apt-get install -y qemu-utils), which provides qemu-img.' },
  qemuCommandMissing: { code: 'DriverOperationError', text: '{command} was not found; install qemu-utils (apt-get install -y qemu-utils), which provides qemu-img.' },
  qemuCommandAborted: { code: 'DriverOperationError', text: '{command} was aborted.' },
  qemuCommandNotStarted: { code: 'DriverOperationError', text: '{command} could not start: {reason}' },
  qemuCommandFailed: { code: 'DriverOperationError', text: '{command} failed ({status}): {output}' },
  qemuImgInfoNotJson: { code: 'DriverOperationError', text: 'qemu-img info printed no JSON for {file}: {output}' },
  qemuImgConvertSize: { code: 'DriverOperationError', text: 'qemu-img convert wrote {size} bytes for {file}, expected the virtual size {expected}.' },
  notQcow2: { code: 'DriverOperationError', text: '{file} is not a qcow2 image.' },
  imageFormatRefused: {
    code: 'InvalidParameterValue',
    text: 'Image {image} is in {format} format, which is not accepted (accepted: {accepted}); convert it to raw or qcow2.',
  },
  imageBackingFile: {
    code: 'InvalidParameterValue',
    text: 'Image {image} is a qcow2 image with a backing file, which is not accepted; flatten it (qemu-img convert -O qcow2).',
  },
  imageDataFile: { code: 'InvalidParameterValue', text: 'Image {image} is a qcow2 image with an external data file, which is not accepted.' },
  qemuReadsOtherFormat: { code: 'InvalidParameterValue', text: 'Image {image}: qemu-img reads it as {format}, which is not accepted.' },
  qemuReadsBackingFile: { code: 'InvalidParameterValue', text: 'Image {image}: qemu-img reads it as {format} backed by {backing}, which is not accepted.' },
  qemuReadsDataFile: { code: 'InvalidParameterValue', text: 'Image {image}: qemu-img reads it as {format} with data file {data}, which is not accepted.' },
  qemuVirtualSizeMismatch: { code: 'InvalidParameterValue', text: 'Image {image}: qemu-img reports a virtual size of {qemu} bytes, the qcow2 header {header}.' },
  imageSizeUnknown: { code: 'InvalidParameterValue', text: 'Image {image} has no known size.' },
  rootDiskSizeUnknown: { code: 'InvalidParameterValue', text: 'The root disk size is unknown ({size}); inspect the node first.' },
  imageTooLargeForDisk: { code: 'InvalidParameterValue', text: 'Image {image} needs {size} but the root disk holds only {disk}.' },

  // configdrive/decode.ts
  configDriveEmptyString: { code: 'InvalidParameterValue', text: 'The config drive is an empty string; give a URL, a gzip+base64 image or a JSON object.' },
  configDriveWrongType: {
    code: 'InvalidParameterValue',
    text: 'The config drive must be a URL, a gzip+base64 image or a JSON object with {keys}; got {type}.',
  },
  configDriveUnknownKeys: { code: 'InvalidParameterValue', text: 'The config drive object has unknown keys {keys}; allowed: {allowed}.' },
  configDriveFieldNotObject: { code: 'InvalidParameterValue', text: 'The config drive\'s {field} must be a JSON object.' },
  configDriveUserDataInvalid: { code: 'InvalidParameterValue', text: 'The config drive\'s user_data must be a string, an object or an array.' },
  configDriveRenderedTooLarge: { code: 'InvalidParameterValue', text: 'The rendered config drive is {size}, more than {max}; shorten user_data.' },
  configDriveUrlTooLarge: { code: 'InvalidParameterValue', text: 'The config drive at {url} is larger than {max}.' },
  configDriveFromUrlInflatesTooLarge: { code: 'InvalidParameterValue', text: 'The config drive from {url} inflates to more than {max}, the most the agent writes.' },
  configDriveFromUrlNotGzip: { code: 'InvalidParameterValue', text: 'The config drive from {url} is not valid gzip data: {reason}.' },
  configDriveFromUrlEmpty: { code: 'DriverOperationError', text: 'The config drive from {url} is empty.' },
  configDriveFromUrlTooLarge: { code: 'InvalidParameterValue', text: 'The config drive from {url} is {size}, more than {max}.' },
  configDriveValueNotBase64: {
    code: 'InvalidParameterValue',
    text: 'The config drive value is neither a URL nor base64 text (gzip + base64 of an ISO 9660 or vfat image).',
  },
  configDriveValueNotGzip: {
    code: 'InvalidParameterValue',
    text: 'The config drive value decodes from base64 but is not gzip data; send gzip + base64 of the image.',
  },
  configDriveValueInflatesTooLarge: { code: 'InvalidParameterValue', text: 'The config drive value inflates to more than {max}, the most the agent writes.' },
  configDriveValueBadGzip: { code: 'InvalidParameterValue', text: 'The config drive value is not valid gzip data: {reason}.' },
  configDriveValueEmpty: { code: 'InvalidParameterValue', text: 'The config drive value inflates to nothing.' },
} as const satisfies MessageTable;
