import { S3Client } from "@aws-sdk/client-s3";

// Photos are uploaded in parts straight to the bucket with presigned URLs.
export const CHUNK_SIZE = 5 * 1024 * 1024;
export const PRESIGN_EXPIRY_S = 900;
export const MAX_PHOTO_BYTES = 40 * 1024 * 1024;
export const BUCKET = process.env.PHOTO_BUCKET ?? "gustline-photos-dev";

export const s3 = new S3Client({
  region: process.env.AWS_REGION ?? "eu-north-1",
  endpoint: process.env.S3_ENDPOINT,
  forcePathStyle: Boolean(process.env.S3_ENDPOINT),
});
