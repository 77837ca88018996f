"""The S3 bucket the tests put on moto's server mode (a real S3 API on loopback)."""

from __future__ import annotations

import json


def create_public_bucket(client, bucket: str) -> None:
    """A bucket anyone may read, as the operator sets it up for the site's images
    (docs/operations.md, 'Configuration': the `S3_*` settings)."""
    client.create_bucket(Bucket=bucket)
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": "*",
                "Action": "s3:GetObject",
                "Resource": f"arn:aws:s3:::{bucket}/*",
            }
        ],
    }
    client.put_bucket_policy(Bucket=bucket, Policy=json.dumps(policy))
