//! The crowd that takes the quizzes: who may take part (one participation per Prolific id,
//! the headphone screening of clip quizzes), whose sessions the human rows keep (quality
//! control) and what the public sees of the crowd's figures (published).

pub mod headphones;
pub mod items;
pub mod participation;
pub mod published;
pub mod quality;
