//! The application put together: start-up (router and background tasks), the command line,
//! demo data, the OpenAPI document, the guide pages and the embedded console.

pub mod api_docs;
pub mod cli;
pub mod demo;
pub mod guide;
pub mod startup;
pub mod template_pages;
pub mod web_assets;
